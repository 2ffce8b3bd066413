"""The facts of the generated daily-notes vault (daily.py) and the question each one answers.

A fact kind has subjects — what tells two facts of a kind apart (the airport garage, the
stadium car park) — each used once, so every question has one answering note. A subject is
a dict of slot values; a kind's ``facts`` and ``questions`` are templates filled with the
subject's slots and slots drawn from ``POOLS``. A subject may carry its own ``facts`` and
``questions`` (a hint about the Wi-Fi is not worded as one about a padlock).

Questions are written as a person asks, paraphrasing the fact (a "dental checkup" for the
"Dentist appointment"); a subject's name (a person, a city) is kept, as a person keeps it.
Written before any ranking was looked at; nothing here is tuned to one.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FactKind:
    kind: str
    section: str  # the heading a daily note with sections files it under
    subjects: tuple[dict[str, str], ...]
    facts: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    extra: dict[str, tuple[str, ...]] = field(default_factory=dict)


POOLS: dict[str, tuple[str, ...]] = {
    "weekday": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"),
    "time": ("8:30", "9:15", "10:40", "11:00", "13:30", "14:45", "16:20", "17:10"),
    "street": ("Elm Street", "Harbour Road", "Kingsway", "Mill Lane", "Station Square", "Victoria Avenue"),
    "level": ("2", "3", "4", "5", "B1", "B2"),
    "row": ("A", "C", "F", "H", "K", "M"),
    "number": ("12", "17", "23", "31", "48", "56"),
    "nth": ("3rd", "9th", "14th", "18th", "22nd", "27th"),
    "month": ("January", "February", "March", "April", "May", "June"),
    "person": ("Lena", "Marco", "Priya", "Tom", "Keiko", "Jonas", "Aisha", "Sam"),
}

KINDS: tuple[FactKind, ...] = (
    FactKind(
        "appointment", "Health",
        (
            {"who": "Dentist", "q": "dental checkup"},
            {"who": "Physio", "q": "physical therapy session"},
            {"who": "Optician", "q": "eye test"},
            {"who": "Barber", "q": "haircut"},
            {"who": "Vet (Biscuit's jabs)", "q": "dog's vaccinations"},
            {"who": "Dermatologist", "q": "skin doctor visit"},
            {"who": "Accountant", "q": "meeting about my tax return"},
        ),
        ("{who} appointment moved to {weekday} at {time}.",
         "{who} booked for {weekday}, {time}, at the practice on {street}.",
         "{who}: they can fit me in on {weekday} at {time}."),
        ("when is my {q}", "what day did my {q} get moved to", "what time do I have to be at the {q}"),
    ),
    FactKind(
        "parking", "Notes",
        (
            {"place": "the airport garage", "q": "airport"},
            {"place": "the stadium car park", "q": "football match"},
            {"place": "Westfield shopping centre", "q": "mall"},
            {"place": "St. Mary's hospital", "q": "hospital"},
            {"place": "the central station lot", "q": "train station"},
        ),
        ("Parked on level {level}, row {row} at {place}.",
         "Car is at {place}, deck {level}, bay {row}{number}.",
         "Left the car in {place} — floor {level}, next to the lifts, section {row}."),
        ("where did I park my car at the {q}", "where did I leave the car at the {q}", "which floor is my car on at the {q}"),
    ),
    FactKind(
        "gift", "Home",
        (
            {"who": "Mum", "occasion": "her birthday"},
            {"who": "Tom", "occasion": "his retirement"},
            {"who": "Aisha", "occasion": "the housewarming"},
            {"who": "Grandpa", "occasion": "Christmas"},
            {"who": "Noor", "occasion": "her graduation"},
        ),
        ("Bought {gift} for {who} — for {occasion}.",
         "Present for {who} ({occasion}): {gift}. Wrapped, in the hall cupboard.",
         "Ordered {gift} online for {who}, should arrive before {occasion}."),
        ("what am I giving {who}", "what present did I get for {who}", "what did I buy {who} as a gift"),
        {"gift": ("a ceramic teapot", "noise-cancelling headphones", "a hardback atlas", "a wool scarf",
                  "a bonsai kit", "a Nina Simone record", "a cast-iron pan")},
    ),
    FactKind(
        "book", "Notes",
        ({"who": "Lena"}, {"who": "Marco"}, {"who": "Keiko"}),
        ("{who} recommended the book {book}, says the ending is worth the slow start.",
         "{who} lent me {book} — has to go back to them by the end of the month.",
         "Must read {book}, {who} could not stop talking about it."),
        ("what novel did {who} tell me to read", "which book was {who} raving about", "what was {who}'s reading tip"),
        {"book": ("The Left Hand of Darkness", "Piranesi", "A Gentleman in Moscow", "The Remains of the Day",
                  "Station Eleven")},
    ),
    FactKind(
        "restaurant", "Notes",
        ({"who": "Priya"}, {"who": "Jonas"}, {"who": "Sam"}),
        ("{who} says we should try {restaurant}, the {cuisine} place on {street}.",
         "Dinner idea from {who}: {restaurant} ({cuisine}), book ahead on weekends."),
        ("where did {who} suggest we go to eat", "which place for dinner did {who} mention", "{who}'s tip for going out to eat"),
        {"restaurant": ("Casa Lupa", "Tandoor House", "Little Saigon", "Osteria Nove", "Mezze Garden"),
         "cuisine": ("Portuguese", "Georgian", "Vietnamese", "Ethiopian", "Lebanese")},
    ),
    FactKind(
        "podcast", "Notes",
        ({"who": "Aisha"}, {"who": "Tom"}),
        ("{who} suggested the podcast {podcast}, the episode about {topic}.",),
        ("what was that show {who} said I should listen to", "which audio series did {who} mention"),
        {"podcast": ("Deep Currents", "The Long Table", "Small Machines"),
         "topic": ("lighthouse keepers", "the history of salt", "urban beekeeping")},
    ),
    FactKind(
        "hint", "Home",
        (
            {"facts": "Wi-Fi at Mum and Dad's: network {ssid}, the password is on the card under the router.",
             "questions": "how do I get online at my parents' house"},
            {"facts": "Bank app login hint: first pet's name plus the year we moved to {street}.",
             "questions": "what was the reminder for signing into my banking"},
            {"facts": "Combination for the storage unit padlock is written inside the blue notebook, back page.",
             "questions": "where did I write down the code for the lock-up"},
            {"facts": "Router admin page is 192.168.1.1; the sign-in is on the sticker underneath.",
             "questions": "how do I change the settings of the home internet box"},
            {"facts": "Gym locker: I used my usual four digits, the ones from the old flat's door.",
             "questions": "which number did I pick for the fitness club cabinet"},
        ),
        extra={"ssid": ("Bramble-5G", "TALKTALK-8F2", "Vodafone-Home", "Lindenhof")},
    ),
    FactKind(
        "deadline", "Work",
        (
            {"project": "Atlas", "q": "Atlas"},
            {"project": "Q4 budget", "q": "fourth quarter budget"},
            {"project": "grant application", "q": "funding proposal"},
            {"project": "conference talk", "q": "presentation for the conference"},
            {"project": "Harbor migration", "q": "Harbor move"},
        ),
        ("{project} report due {weekday} — send it to {person}.",
         "Deadline for the {project} slides moved to the {nth}.",
         "{person} needs the {project} numbers by end of day {weekday}."),
        ("when do I have to hand in the {q} work", "by when does the {q} have to be finished", "what's the due date for the {q}"),
    ),
    FactKind(
        "health", "Health",
        (
            {"facts": "Started {med} 10 mg, one tablet with breakfast.",
             "questions": "what dose of my new medication am I on", "med": "citalopram"},
            {"facts": "Ran 7 km along the {river} in {minutes} minutes, knee held up fine.",
             "questions": "how long did my jog by the {river} take"},
            {"facts": "Blood pressure this morning 142/91, a bit high, check again next week.",
             "questions": "what was my last BP reading"},
            {"facts": "Itchy rash after eating {food} at lunch — probably allergic, avoid it.",
             "questions": "what food gave me a skin reaction"},
            {"facts": "No more coffee after {time}, sleep has been terrible.",
             "questions": "what time did I decide to stop having caffeine"},
        ),
        extra={"med": ("sertraline",), "river": ("canal", "river Wey"), "minutes": ("38", "41", "44"),
               "food": ("cashews", "mango", "shellfish")},
    ),
    FactKind(
        "travel", "Travel",
        (
            {"facts": "Flight to {city}: {airline} {code}, leaves {time} from terminal {number}.",
             "questions": "what time does my plane to {city} take off", "city": "Lisbon"},
            {"facts": "Hotel in {city} is the {hotel}, check-in after 3, confirmation in my email.",
             "questions": "where am I staying in {city}", "city": "Kraków"},
            {"facts": "Train to {city} booked: coach {coach}, seat {number}.",
             "questions": "which seat do I have on the rail trip to {city}", "city": "Edinburgh"},
            {"facts": "Passport runs out in {month} — renew it before the {city} trip.",
             "questions": "when does my travel document expire", "city": "Osaka"},
            {"facts": "Car rental in {city} picked up at the airport desk, return with a full tank by 10.",
             "questions": "what are the conditions for giving back the hire car in {city}", "city": "Montreal"},
        ),
        extra={"airline": ("TAP", "easyJet", "KLM"), "code": ("TP1357", "U2 8461", "KL1002"),
               "hotel": ("Hotel Wawel", "Puro Kazimierz", "Hotel Stary"), "coach": ("C", "D", "G")},
    ),
    FactKind(
        "home", "Home",
        (
            {"facts": "Plumber ({name}) is coming {weekday} morning about the kitchen sink.",
             "questions": "who is fixing the leaking tap and when"},
            {"facts": "Landlord emailed: rent goes up to {amount} from {month}.",
             "questions": "how much will I pay for the flat"},
            {"facts": "Bought a {item} at {store}; the receipt is in the kitchen drawer.",
             "questions": "where is the proof of purchase for the {item}"},
            {"facts": "Recycling is collected every other {weekday} now.",
             "questions": "when should I put the bins out"},
            {"facts": "Left the spare key with {neighbour} at number {number}.",
             "questions": "who has a copy of my house key"},
        ),
        extra={"name": ("Dariusz", "Kevin", "Mehmet"), "amount": ("£1,450", "£1,520", "£1,390"),
               "item": ("dehumidifier", "cordless drill", "standing desk"), "store": ("Argos", "B&Q", "IKEA"),
               "neighbour": ("Mrs Okafor", "Pete", "the Hendersons")},
    ),
    FactKind(
        "people", "Notes",
        (
            {"facts": "{who} moved to {city} for the new job.", "questions": "where does {who} live now", "who": "Marco",
             "city": "Rotterdam"},
            {"facts": "{who} and Ben are expecting — due in {month}!", "questions": "when is {who}'s baby coming",
             "who": "Priya"},
            {"facts": "{who}'s birthday is on the {nth} of {month}.", "questions": "when should I wish {who} many happy returns",
             "who": "Jonas"},
            {"facts": "{who} got the promotion, now team lead at the museum.", "questions": "what is {who}'s new role at work",
             "who": "Keiko"},
        ),
    ),
)

# Facts no question asks about: the rest of a day.
FILLERS: tuple[str, ...] = (
    "Rain all day, stayed in.",
    "Finished the crossword for once.",
    "Long day, early night.",
    "Watched two episodes of the baking show.",
    "Made lentil soup, too much salt.",
    "Felt tired after lunch, short walk helped.",
    "Cleaned the bathroom and the oven.",
    "Called Mum, she sounds well.",
    "Read forty pages before bed.",
    "Team lunch at the noodle bar.",
    "Sorted the laundry mountain.",
    "Biscuit chewed a slipper again.",
    "Bus was late, missed the first meeting.",
    "Sunny and cold, lovely light in the afternoon.",
    "Paid the electricity bill.",
    "Planted the tulip bulbs by the fence.",
    "Standup ran long, nothing decided.",
    "Fixed the squeaky door hinge with oil.",
    "Tried the new yoga video, harder than it looks.",
    "Inbox zero by five.",
    "Lena came over for tea.",
    "Backed up the laptop to the external drive.",
    "Quiet day at work.",
    "Bought more coffee beans.",
)

# A journal entry's sentences: a daily note of more than one passage.
JOURNAL: tuple[str, ...] = (
    "I keep thinking about how the year has gone and what I want from the next one.",
    "Work has been steady, but I miss having a project that is mine from start to finish.",
    "The mornings are darker now and getting out of bed is harder than it should be.",
    "I should write more often; a few lines a day is better than a page a month.",
    "Talked with a friend about moving somewhere smaller, with a garden and fewer stairs.",
    "There is a kind of tiredness that sleep does not fix, and I think that is what this is.",
    "Walking without headphones helps; I notice the street, the trees, the people at the bus stop.",
    "I want to learn to cook three dishes properly instead of twenty badly.",
    "Money is fine this month, the car repair was cheaper than feared.",
    "I am better at starting things than finishing them, and I know it.",
    "The evenings feel long without a routine, so I have started drawing again.",
    "Maybe next year is the year of fewer commitments and more time outside.",
)
