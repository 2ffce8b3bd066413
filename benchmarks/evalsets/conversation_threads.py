"""What the people of the generated conversations talk about: threads of a few stages.

Plain data, no logic (``conversations.py`` schedules and fills them). A thread belongs to
one person ("me"; the friend is "you") and runs over several sessions: a stage happens
``gap`` sessions after the previous one, so topics come back weeks later. Each line is
``(who, variants, evidence)``: the variants say the same facts in other words, and a
line with an ``evidence`` tag is the turn a question about that fact must find.

Facts live in slots (``{breed}``, ``{highlight}``) drawn from ``records`` (one record
per thread instance, so a destination's food and its highlight agree) and the person's
own fields (``{partner}``, ``{colleague}``). Questions name the person (``{Me}``) and
paraphrase the evidence instead of repeating its words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ME, YOU = "me", "you"


@dataclass(frozen=True)
class Line:
    who: str
    variants: tuple[str, ...]
    evidence: str | None = None


@dataclass(frozen=True)
class Stage:
    gap: tuple[int, int]  # sessions after the previous stage (first stage: ignored)
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class QuestionTemplate:
    kind: str  # single | multi | temporal
    variants: tuple[str, ...]
    evidence: tuple[str, ...]
    answer: str


@dataclass(frozen=True)
class ThreadType:
    slug: str
    category: str
    records: tuple[dict[str, str], ...]
    stages: tuple[Stage, ...]
    questions: tuple[QuestionTemplate, ...]
    requires: tuple[str, ...] = ()
    repeat: int = 1  # how many instances one person may have (trips, hobbies)
    list_evidence: str | None = None  # the tag a category list question collects
    extra: dict[str, str] = field(default_factory=dict)


def line(who: str, *variants: str, evidence: str | None = None) -> Line:
    return Line(who, tuple(variants), evidence)


def ask(kind: str, evidence: str, answer: str, *variants: str) -> QuestionTemplate:
    return QuestionTemplate(kind, tuple(variants), tuple(evidence.split()), answer)


def records(keys: str, *rows: tuple[str, ...]) -> tuple[dict[str, str], ...]:
    names = keys.split()
    return tuple(dict(zip(names, row, strict=True)) for row in rows)


DOG = ThreadType(
    slug="dog", category="pets", list_evidence="adopt",
    records=records(
        "breed pet fear chewed class_day swallowed",
        ("beagle", "Juniper", "vacuum cleaner", "brand new running shoes", "Sunday", "sock"),
        ("border collie", "Biscuit", "doorbell", "passport cover", "Saturday", "rubber duck"),
        ("greyhound", "Pepper", "thunderstorms", "reading glasses", "Wednesday evening", "chicken bone"),
        ("corgi", "Miso", "garbage truck", "favourite leather belt", "Tuesday evening", "hair tie"),
        ("dachshund", "Otis", "hair dryer", "TV remote", "Saturday", "bottle cap"),
        ("labrador", "Clementine", "blender", "wooden spoon collection", "Sunday", "tennis ball"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "Big news from our house: we brought home a {breed} puppy from the shelter on Saturday. She's called {pet}.",
                 "So we have a new family member! A little {breed} from the rescue centre, and we named her {pet}.",
                 "You'll laugh, but after years of saying no I caved: we adopted a {breed}. Her name is {pet} and she already owns the sofa.",
                 evidence="adopt"),
            line(YOU, "No way! Send me pictures right now.", "Oh that's amazing, {me}! How is she settling in?",
                 "A {breed}! They have so much energy, you'll be out walking all the time.", "Finally! I knew you'd give in one day."),
            line(ME, "She's sweet with everyone, but the {fear} terrifies her. She hides under the bed the second it starts.",
                 "Mostly great. The one thing she can't stand is the {fear}; she shakes like a leaf.",
                 evidence="fear"),
            line(YOU, "Poor thing. She'll get braver once she trusts the house.", "Aw. Give her a cuddle from me."),
        )),
        Stage((2, 5), (
            line(YOU, "How's little {pet} doing?", "Is {pet} still ruling the house?", "Any new {pet} stories?"),
            line(ME, "Honestly {pet} is a menace. Yesterday she destroyed my {chewed}, completely shredded.",
                 "We came home and my {chewed} was in pieces on the rug, and {pet} looked so proud of herself.",
                 evidence="chewed"),
            line(YOU, "Ha, puppies. She'll grow out of it... eventually.", "Oh no! Have you tried giving her chew toys?"),
            line(ME, "We signed her up for obedience classes in the park every {class_day}, fingers crossed they help.",
                 "There's a puppy school at the park on {class_day}s, so she's going there from now on.",
                 evidence="class"),
        )),
        Stage((3, 6), (
            line(ME, "Scary night: {pet} swallowed a {swallowed} and we ended up at the emergency vet at midnight. She's fine now, but my heart!",
                 "We had to rush {pet} to the animal hospital because she'd eaten a {swallowed}. All good in the end, but what a night.",
                 evidence="vet"),
            line(YOU, "Oh no, I'm so glad she's okay.", "That must have been terrifying. How much did that cost you?", "Dogs eat the strangest things."),
            line(ME, "The vet said it happens all the time with young dogs. I'm puppy-proofing the whole flat this weekend.",
                 "The bill was eye-watering, but she's back to chasing pigeons, so I'll take it."),
        )),
    ),
    questions=(
        ask("single", "adopt", "a {breed}", "What breed of dog did {Me} get?", "What kind of dog is {Me}'s new puppy?"),
        ask("single", "adopt", "{pet}", "What is the name of {Me}'s dog?", "What did {Me} call the puppy {they} adopted?"),
        ask("temporal", "adopt", "", "When did {Me} adopt {their} dog?", "When did {Me} bring {pet} home from the shelter?"),
        ask("single", "fear", "the {fear}", "What is {pet} scared of?", "Which noise frightens {Me}'s puppy?"),
        ask("single", "chewed", "{their} {chewed}", "What did {Me}'s puppy ruin?", "Which of {Me}'s things did {pet} chew up?"),
        ask("single", "class", "{class_day}s", "When does {pet} go to dog training?"),
        ask("single", "vet", "a {swallowed}", "Why did {Me} have to take {pet} to the emergency vet?"),
        ask("temporal", "vet", "", "When did {pet} end up at the animal hospital?"),
        ask("multi", "adopt chewed", "a {breed}; {their} {chewed}", "What breed is {Me}'s dog and what has it destroyed?"),
        ask("multi", "chewed vet", "{their} {chewed}; a {swallowed}", "What things has {pet} chewed or swallowed that {pet} shouldn't have?"),
        ask("multi", "adopt fear class", "a {breed}; the {fear}; {class_day}s", "What do we know about {Me}'s puppy: its breed, what scares it, and when it has training?"),
    ),
)

CAT = ThreadType(
    slug="cat", category="pets", list_evidence="adopt",
    records=records(
        "cat_desc pet habit illness",
        ("a grey tabby kitten", "Pickles", "sleeps inside the bathroom sink", "a kidney infection"),
        ("an old ginger tomcat", "Marmalade", "yells at the fridge every morning at five", "an abscess on his paw"),
        ("a black kitten with one white sock", "Nimbus", "steals bread rolls off the counter", "ear mites"),
        ("a fluffy Maine Coon", "Bagel", "fetches hair ties like a dog", "a bad tooth that had to come out"),
        ("a tiny calico", "Olive", "sits on the laptop whenever I start a video call", "a bladder infection"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "Our neighbour was moving abroad and couldn't take her cat, so guess who now has {cat_desc} called {pet}?",
                 "We took in {cat_desc} from the neighbour who moved away. {pet} has been with us three days and already acts like the landlord.",
                 evidence="adopt"),
            line(YOU, "Ha! I always said you were a cat person.", "A cat! What's {pet} like?", "Lucky cat. Does {partner} approve?"),
            line(ME, "He's hilarious. His favourite thing is that he {habit}.", "Weird little creature: he {habit}.", evidence="habit"),
            line(YOU, "That is the most cat thing I've ever heard.", "You have to film that for me."),
        )),
        Stage((3, 7), (
            line(YOU, "How's {pet}?", "Is {pet} still being weird?"),
            line(ME, "Not great this week, the vet found {illness}. He's on medicine twice a day and hates me for it.",
                 "{pet} has {illness}, so it's pills hidden in tuna twice a day. He's not impressed.",
                 evidence="ill"),
            line(YOU, "Poor guy. Hope he's feeling better soon.", "Give him a scratch behind the ears from me."),
        )),
    ),
    questions=(
        ask("single", "adopt", "{cat_desc}", "How did {Me} end up with a cat?", "Where did {Me}'s cat come from?"),
        ask("single", "adopt", "{pet}", "What is {Me}'s cat called?"),
        ask("single", "habit", "he {habit}", "What odd habit does {Me}'s cat have?", "What funny thing does {pet} always do?"),
        ask("single", "ill", "{illness}", "What was wrong with {pet} when {Me} took him to the vet?", "What illness did {Me}'s cat have?"),
        ask("temporal", "adopt", "", "When did {Me} take in the neighbour's cat?"),
        ask("multi", "adopt ill", "{cat_desc}; {illness}", "Where did {pet} come from and what health problem did he have?"),
    ),
)

TRIP = ThreadType(
    slug="trip", category="travel", repeat=3, list_evidence="plan",
    records=records(
        "dest plan_do food highlight mishap",
        ("Lisbon", "wander around Alfama and take the old tram up the hill", "custard tarts",
         "a fado night in a tiny bar where the singer made half the room cry", "I left my phone on a tram and spent a morning at the lost property office"),
        ("Kyoto", "see the temples early in the morning before the crowds", "ramen and matcha everything",
         "walking through the bamboo forest at sunrise with nobody else there", "I got food poisoning from a convenience store sandwich"),
        ("the Scottish Highlands", "drive the coast road and do some proper hill walking", "smoked salmon and whisky",
         "watching dolphins jump in the firth from the beach at Chanonry Point", "the rental car got a flat tyre in the middle of nowhere"),
        ("Mexico City", "visit the museums and take a cooking class", "tacos al pastor from street stands",
         "the murals at the Palacio Nacional, they're enormous", "our hotel booking vanished and we slept in a hostel the first night"),
        ("Iceland", "chase the northern lights and soak in the hot springs", "lamb soup and far too many hot dogs",
         "seeing the aurora dancing green over the glacier lagoon", "a storm closed the ring road and we were stuck in a guesthouse for two days"),
        ("Rome", "eat my way through Trastevere and see the Vatican", "cacio e pepe and supplì",
         "a sunset from the Orange Garden on the Aventine hill", "a pickpocket took my wallet on the metro"),
        ("Vietnam", "ride scooters around Hoi An and cruise Ha Long Bay", "pho for breakfast every day",
         "the lantern festival in Hoi An with the whole river glowing", "I sprained my wrist falling off a rented bicycle"),
        ("Norway", "hike up to Trolltunga and see the fjords", "brown cheese on waffles",
         "standing on the rock ledge above the lake after a ten-hour hike", "I forgot my hiking boots and had to buy the most expensive pair of my life"),
        ("Morocco", "get lost in the Marrakech medina and sleep one night in the desert", "tagine and mint tea",
         "a camel ride into the dunes and a sky with more stars than I've ever seen", "I haggled so badly that I paid triple for a rug"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "We just booked a trip to {dest} for next month! I've wanted to go for years.",
                 "Guess who finally has flights to {dest}? We leave in three weeks.",
                 "Okay, it's official: {dest}, next month. I've already made a spreadsheet.",
                 evidence="plan"),
            line(YOU, "Jealous! What are you planning to do there?", "Oh, lovely! What's the plan once you're there?", "You deserve a holiday. What's on the list?"),
            line(ME, "Mostly {plan_do}. And eating {food} until I can't move.",
                 "I want to {plan_do}, and I'm told I have to try the {food}.",
                 evidence="plan_do"),
            line(YOU, "Sounds perfect. Bring me back something small?", "Take loads of photos!"),
        )),
        Stage((2, 4), (
            line(YOU, "Welcome back! How was {dest}?", "You're home! Tell me everything about {dest}.",
                 "So? Was {dest} as good as you hoped?"),
            line(ME, "{dest} was unreal. The best part was {highlight}. I could have stayed forever.",
                 "It was wonderful. The moment from {dest} I'll remember is {highlight}.",
                 evidence="highlight"),
            line(YOU, "That sounds magical.", "Okay, now I need to go there too.", "I'm so happy you got that."),
            line(ME, "Not everything was perfect though: {mishap}.", "The one disaster: {mishap}. I can laugh about it now.",
                 evidence="mishap"),
            line(YOU, "Oh no! Well, every good trip needs one story like that.", "Ha, that's a travel story for life."),
        )),
    ),
    questions=(
        ask("single", "plan", "{dest}", "Where is {Me} going on holiday?", "Which place did {Me} book a trip to?"),
        ask("single", "plan_do", "{plan_do}", "What did {Me} plan to do in {dest}?"),
        ask("single", "highlight", "{highlight}", "What was the best moment of {Me}'s trip to {dest}?", "What did {Me} enjoy most in {dest}?"),
        ask("single", "mishap", "{mishap}", "What went wrong during {Me}'s holiday in {dest}?", "What bad luck did {Me} have in {dest}?"),
        ask("temporal", "highlight", "", "When did {Me} come back from {dest}?"),
        ask("temporal", "plan", "", "When did {Me} book the trip to {dest}?"),
        ask("multi", "plan_do highlight", "{plan_do}; {highlight}", "What did {Me} intend to do in {dest}, and what turned out to be the highlight?"),
    ),
)

HOBBY = ThreadType(
    slug="hobby", category="hobbies", repeat=2, list_evidence="start",
    records=records(
        "hobby start_line schedule teacher teacher_fact milestone struggle",
        ("pottery", "a pottery course at the community studio", "every Thursday night", "Marguerite",
         "used to make tiles for cathedrals and has no patience for excuses",
         "I made a bowl that actually holds soup without leaking", "everything I throw on the wheel collapses the second I try to make the walls thin"),
        ("bouldering", "a beginners' bouldering club at the climbing gym", "on Monday and Wednesday evenings", "Kai",
         "climbed in Yosemite for ten years and can hang off one finger",
         "I finally topped the purple problem in the cave that I'd been failing for weeks", "my forearms are so sore I can't open jars"),
        ("guitar", "guitar lessons with a teacher down the road", "on Saturday mornings", "Rosa",
         "played in a flamenco band in Seville before she moved here",
         "I can play the whole of a Beatles song without stopping now", "the tips of my fingers are raw and the F chord still sounds like a dying cat"),
        ("watercolour", "an evening watercolour class at the library", "every Tuesday", "Mr Adeyemi",
         "spent forty years painting birds for nature field guides",
         "one of my paintings of the harbour got picked for the class exhibition", "I keep making mud because I can't wait for the layers to dry"),
        ("salsa", "salsa dancing lessons at a bar downtown", "on Friday nights", "Javier",
         "danced professionally in Cali and has the best hips in the city",
         "we danced a whole song at the social without me stepping on anyone's feet", "I count out loud and everybody can hear me"),
        ("woodworking", "a woodworking course at the makerspace", "on Sunday afternoons", "Gunnar",
         "builds boats by hand and still has all ten fingers, which he says is the point",
         "I built a little stool with dovetail joints and it doesn't wobble", "I measured twice and still cut the wrong board"),
        ("chess", "the chess club that meets at the café near my work", "on Wednesday nights", "Olga",
         "was a national junior champion and plays five games at once",
         "I won my first tournament game with a sneaky knight fork", "I keep losing my queen in the first ten moves"),
        ("birdwatching", "a birdwatching group that walks the marshes", "early on Sunday mornings", "Doreen",
         "can name any bird from a single chirp and carries a notebook from 1974",
         "I spotted a kingfisher on my own and the whole group cheered", "I got up at five and the only thing I saw was a very wet duck"),
        ("photography", "a film photography workshop", "every other Saturday", "Mateo",
         "shot album covers in the nineties and develops everything in his bathroom",
         "a shot I took of the fish market got printed big for the workshop wall", "I opened the camera in daylight and ruined a whole roll"),
        ("sourdough baking", "a bread baking class at the cookery school", "on Monday nights", "Agnieszka",
         "runs a bakery that sells out by eight every morning",
         "my loaf finally had a proper open crumb and a crust that crackles", "my starter died while I was away for the weekend"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "I finally did it, I signed up for {start_line}. Classes are {schedule}.",
                 "New thing: I've started {start_line}, {schedule}. Had my first session last night.",
                 evidence="start"),
            line(YOU, "You've been talking about that forever!", "Love that for you. How was the first session?",
                 "Oh fun! Is it hard?"),
            line(ME, "The teacher, {teacher}, {teacher_fact}. A bit intimidating but brilliant.",
                 "Our instructor is called {teacher}, who {teacher_fact}.",
                 evidence="teacher"),
        )),
        Stage((2, 6), (
            line(YOU, "How's the {hobby} going?", "Are you still going to the {hobby} thing?", "Any progress with the {hobby}?"),
            line(ME, "Small {hobby} victory: {milestone}. I was ridiculously proud.", "The {hobby} is going really well! {milestone}.",
                 evidence="milestone"),
            line(YOU, "That's brilliant, well done!", "See, you're a natural.", "Ha, I want proof of that."),
            line(ME, "The hard part is that {struggle}.", "Not all roses though: {struggle}.", evidence="struggle"),
        )),
    ),
    questions=(
        ask("single", "start", "{hobby}", "What class did {Me} sign up for?", "Which new pastime did {Me} take up?"),
        ask("single", "start", "{schedule}", "When are {Me}'s {hobby} sessions?", "What day does {Me} go to {hobby}?"),
        ask("single", "teacher", "{teacher}", "Who teaches {Me}'s {hobby} class?", "What do we know about {Me}'s {hobby} instructor?"),
        ask("single", "milestone", "{milestone}", "What has {Me} achieved in {hobby} so far?", "What was {Me} proud of in {hobby}?"),
        ask("single", "struggle", "{struggle}", "What does {Me} find difficult about {hobby}?"),
        ask("temporal", "start", "", "When did {Me} start {hobby}?"),
        ask("multi", "teacher milestone", "{teacher}; {milestone}", "Who is {Me}'s {hobby} teacher and what has {Me} managed to do so far?"),
    ),
)

RACE = ThreadType(
    slug="race", category="fitness",
    records=records(
        "race race_city goal physio result",
        ("half marathon", "Edinburgh", "two hours", "calf raises on the stairs and lots of foam rolling", "1:57:40"),
        ("marathon", "Chicago", "four hours", "single-leg squats and a week off running", "4:12:05"),
        ("10K", "Brighton", "fifty minutes", "glute bridges and clamshells every night", "48:31"),
        ("trail race", "Snowdonia", "three and a half hours", "balance work on a wobble board", "3:41:10"),
        ("half marathon", "Valencia", "one hour fifty", "hip stretches and strength work twice a week", "1:49:02"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "I did something reckless: I entered the {race} in {race_city}. I want to finish in under {goal}.",
                 "Registration done, no going back: the {race_city} {race}. Target is anything under {goal}.",
                 evidence="goal"),
            line(YOU, "You're mad! But good for you.", "Wow. How much training do you need for that?", "I'll be there with a sign."),
        )),
        Stage((2, 4), (
            line(ME, "Training update: my knee started complaining on the long runs, so the physio has me doing {physio}.",
                 "I went to a physio about my sore knee and now I'm on {physio}. Boring but it works.",
                 evidence="physio"),
            line(YOU, "Listen to the physio, not your ego.", "Ugh, injuries are the worst. Is it getting better?"),
        )),
        Stage((2, 5), (
            line(YOU, "Well?? How did the race go?", "So... the big day! How was it?"),
            line(ME, "I finished the {race}! My watch said {result}. I cried a bit at the end, not going to lie.",
                 "Done! Crossed the {race_city} finish line in {result} and then couldn't walk down stairs for two days.",
                 evidence="result"),
            line(YOU, "Incredible. I'm so proud of you!", "That's a real time! Legend."),
        )),
    ),
    questions=(
        ask("single", "goal", "the {race} in {race_city}", "What race did {Me} enter?", "Which running event did {Me} sign up for?"),
        ask("single", "goal", "under {goal}", "What time was {Me} aiming for in the {race}?"),
        ask("single", "physio", "{physio}", "What exercises did the physio give {Me} for {their} knee?"),
        ask("single", "result", "{result}", "How long did it take {Me} to finish the {race}?", "What was {Me}'s finishing time?"),
        ask("temporal", "result", "", "When did {Me} run the {race} in {race_city}?"),
        ask("multi", "goal result", "under {goal}; {result}", "Did {Me} beat the target time {they} set for the {race}?"),
        ask("multi", "physio result", "{physio}; {result}", "How did {Me} deal with the knee pain and how did the race go in the end?"),
        ask("multi", "goal physio result", "under {goal}; {physio}; {result}", "Tell me about {Me}'s {race}: the goal, the injury on the way, and the final time."),
    ),
)

NEW_JOB = ThreadType(
    slug="new-job", category="work",
    records=records(
        "new_company new_role perk",
        ("Northwind", "team lead", "a four-day week"),
        ("Bluebird Labs", "senior", "a proper budget for conferences"),
        ("Halcyon", "head of department", "fully remote Fridays"),
        ("Greenfield & Co", "lead", "a sabbatical after three years"),
        ("Parallax", "principal", "twenty percent more pay and a shorter commute"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "Don't tell anyone yet, but I had a second interview at {new_company} for a {new_role} position.",
                 "Secret news: {new_company} called me back for another round, for a {new_role} role.",
                 evidence="interview"),
            line(YOU, "Ooh! How did it go?", "My lips are sealed. Do you want it?", "That's huge, {me}!"),
            line(ME, "I think well? They asked me to walk through a project I'm proud of, and I talked about {project}.",
                 "Good, I think. I ended up spending half the hour talking about {project}."),
        )),
        Stage((1, 3), (
            line(ME, "They made me an offer! The best part is {perk}.", "I got the {new_company} job! And wait for it: {perk}.",
                 evidence="offer"),
            line(YOU, "Congratulations!!! Champagne on me.", "You absolutely deserve it.", "Amazing! When do you start?"),
            line(ME, "Telling {boss} was the hardest bit, but it went better than I feared.",
                 "I handed my notice to {boss} this morning. Weird feeling after all these years.",
                 evidence="notice"),
        )),
    ),
    questions=(
        ask("single", "interview", "{new_company}", "Which company was {Me} interviewing with?", "Where did {Me} apply for a new job?"),
        ask("single", "offer", "{perk}", "What perk comes with {Me}'s new job?", "What does {Me} like most about the job offer?"),
        ask("temporal", "offer", "", "When did {Me} get the job offer from {new_company}?"),
        ask("single", "notice", "{boss}", "Who did {Me} have to resign to?"),
        ask("multi", "interview offer", "{new_role} at {new_company}; {perk}", "What position did {Me} get offered, where, and with what benefit?"),
    ),
)

WORK = ThreadType(
    slug="work", category="work",
    records=({},),
    stages=(
        Stage((0, 0), (
            line(ME, "Work is chaos at the moment. I'm on {project}, and now {project_push}.",
                 "I'm drowning a bit. It's {project}, and {project_push}.",
                 evidence="project"),
            line(YOU, "Ugh, deadlines moving in the wrong direction. Can you push back?", "That sounds stressful. Are they giving you any help?"),
            line(ME, "And {colleague} {colleague_issue}.", "Plus {colleague}, who {colleague_issue}.", evidence="colleague"),
            line(YOU, "Have you told {boss}?", "That would drive me up the wall.", "You need to say something, {me}."),
        )),
        Stage((3, 6), (
            line(YOU, "How's the {project_short} going?", "Did you survive the {project_short}?"),
            line(ME, "{project_done}", "It's done! {project_done}", evidence="done"),
            line(YOU, "That's brilliant. Celebrate properly this time.", "I knew you'd pull it off."),
        )),
    ),
    questions=(
        ask("single", "project", "{project}", "What is {Me} working on at {company}?", "What big project is {Me} busy with at work?"),
        ask("single", "colleague", "{colleague} {colleague_issue}", "What is {Me}'s problem with {colleague}?", "Which coworker annoys {Me}, and why?"),
        ask("single", "done", "{project_done}", "How did {Me}'s {project_short} turn out?"),
        ask("temporal", "done", "", "When was {Me}'s {project_short} finished?"),
        ask("multi", "project done", "{project_push}; {project_done}", "What pressure was {Me} under for the {project_short}, and how did it end?"),
    ),
)

WEDDING = ThreadType(
    slug="wedding", category="family",
    records=records(
        "venue wedding_job moment",
        ("an old barn in the countryside", "giving a speech", "the dog walked the rings down the aisle and then lay down in the middle of it"),
        ("a lighthouse on the coast", "doing the flowers", "it poured with rain during the vows and everyone ended up dancing in it"),
        ("a castle hotel", "the one who holds the rings", "our granddad sang an old folk song at dinner and the whole room went silent"),
        ("a vineyard up in the hills", "running the playlist", "the cake collapsed an hour before dinner and we rebuilt it with cocktail sticks"),
        ("the botanical gardens", "officiating the ceremony", "a peacock wandered into the photos and refused to leave"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "Family news: my {sibling_rel} {sibling} is getting married, at {venue}, and I'm {wedding_job}!",
                 "{sibling} just got engaged, and the wedding will be at {venue}. I've been asked to be {wedding_job}.",
                 evidence="announce"),
            line(YOU, "Oh how lovely! Tell {sibling} congratulations from me.", "That's so exciting. Are you nervous?", "A wedding! Do you need help?"),
        )),
        Stage((2, 5), (
            line(YOU, "How was {sibling}'s big day?", "I've been waiting to hear about the wedding!"),
            line(ME, "{sibling}'s wedding was so beautiful. The bit everyone will talk about for years: {moment}.",
                 "Perfect, and a bit chaotic: {moment}. {sibling} didn't stop laughing.", evidence="moment"),
            line(YOU, "Ha, that's the best kind of wedding.", "I'm crying just hearing about it."),
        )),
    ),
    questions=(
        ask("single", "announce", "at {venue}", "Where is {Me}'s {sibling_rel} getting married?", "What is the wedding venue for {sibling}?"),
        ask("single", "announce", "{wedding_job}", "What role does {Me} have at {sibling}'s wedding?"),
        ask("single", "moment", "{moment}", "What memorable thing happened at {sibling}'s wedding?"),
        ask("temporal", "moment", "", "When did {Me}'s {sibling_rel}'s wedding take place?"),
        ask("temporal", "announce", "", "When did {Me} learn that {sibling} was engaged?"),
    ),
)

PARENT = ThreadType(
    slug="parent", category="family",
    records=records(
        "procedure recovery",
        ("a hip replacement", "walked to the end of the street and back without the frame"),
        ("cataract surgery", "read the newspaper without glasses for the first time in years"),
        ("a knee operation", "went back to the swimming pool"),
        ("heart stent surgery", "was out weeding the garden against the doctor's orders"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "It's been a heavy week. My {parent_rel} had {procedure} on Tuesday, so I've been at the hospital every evening.",
                 "Sorry I've been quiet: my {parent_rel} went in for {procedure} and I've been driving back and forth.",
                 evidence="surgery"),
            line(YOU, "Oh, I'm sorry. How is {parent} doing?", "Sending love to your family. Is everything okay?"),
            line(ME, "The surgeon said it went well. Now it's mostly rest and being grumpy about the hospital food.",
                 "It went fine. The hardest part is convincing a stubborn person to rest."),
        )),
        Stage((3, 6), (
            line(YOU, "How's your {parent_rel} recovering?", "Is {parent} back on their feet?"),
            line(ME, "So much better. Yesterday {parent} {recovery}!", "Recovering faster than anyone expected: {parent} {recovery}.",
                 evidence="recovery"),
            line(YOU, "That's wonderful news.", "Ha, sounds like {parent} is back to normal."),
        )),
    ),
    questions=(
        ask("single", "surgery", "{procedure}", "What operation did {Me}'s {parent_rel} have?", "Why was {Me} visiting the hospital every evening?"),
        ask("single", "recovery", "{recovery}", "What sign of recovery did {Me} mention after {parent}'s surgery?"),
        ask("temporal", "surgery", "", "When did {Me}'s {parent_rel} have surgery?"),
        ask("multi", "surgery recovery", "{procedure}; {recovery}", "What procedure did {parent} have and how has the recovery gone?"),
    ),
)

KID = ThreadType(
    slug="kid", category="family", requires=("kid",),
    records=records(
        "kid_role show kid_news",
        ("a very dramatic tree", "the school's version of The Wizard of Oz", "came home with a certificate for being the kindest kid in class"),
        ("the narrator", "a play about the planets", "scored a goal in the under-nines final"),
        ("the Big Bad Wolf", "the Christmas pantomime", "finally learned to ride a bike without stabilisers"),
        ("a singing lobster", "the spring musical", "got picked for the regional spelling bee"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "{kid} has a part in {show} and is playing {kid_role}. We're rehearsing lines every night at dinner.",
                 "Proud parent moment: {kid} got cast as {kid_role} in {show}.",
                 evidence="role"),
            line(YOU, "That is adorable. Film it for me!", "A star is born.", "Ha! Which side of the family does that come from?"),
        )),
        Stage((2, 5), (
            line(ME, "Another proud moment: {kid} {kid_news}.", "Big day here, {kid} {kid_news}!", evidence="news"),
            line(YOU, "Tell {kid} I said well done!", "That kid is going places."),
        )),
    ),
    questions=(
        ask("single", "role", "{kid_role}", "What part did {Me}'s child get in the school play?", "Who does {kid} play in {show}?"),
        ask("single", "news", "{kid_news}", "What did {kid} achieve recently?"),
        ask("temporal", "news", "", "When did {Me} share that {kid} {kid_news}?"),
        ask("multi", "role news", "{kid_role}; {kid_news}", "What are the things {Me} has been proud of {kid} for?"),
    ),
)

HOME = ThreadType(
    slug="home", category="home",
    records=records(
        "room reno_problem reno_finish",
        ("kitchen", "the builders found the old wiring was held together with tape", "we have a dark green kitchen with a huge oak worktop"),
        ("bathroom", "there was a leak under the floor that had rotted the joists", "a walk-in shower with tiny terracotta tiles"),
        ("attic", "there was a family of bats living in the roof and we had to wait for them to move out", "a little office under the skylight with room for a reading chair"),
        ("garden", "we dug up about a tonne of old bricks and a bathtub", "raised vegetable beds and a patio made from the old bricks"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "We're finally redoing the {room}, and of course on day one {reno_problem}.",
                 "The {room} renovation has started and already {reno_problem}. Classic.",
                 evidence="problem"),
            line(YOU, "Oh no. Is it going to blow the budget?", "Renovations always do that. Hang in there."),
        )),
        Stage((3, 6), (
            line(YOU, "Is the {room} done yet?", "How's the building work?"),
            line(ME, "The {room} is finished! Now we have {reno_finish}. I keep going in just to look at it.",
                 "The {room} is done at last: {reno_finish}. Worth every grey hair.", evidence="finish"),
            line(YOU, "Send pictures! I need to see it.", "You have to have me over to admire it."),
        )),
    ),
    questions=(
        ask("single", "problem", "{reno_problem}", "What went wrong when {Me}'s {room} renovation started?"),
        ask("single", "finish", "{reno_finish}", "What does {Me}'s new {room} look like?"),
        ask("temporal", "finish", "", "When did {Me} finish renovating the {room}?"),
        ask("single", "problem", "the {room}", "Which room is {Me} renovating?"),
    ),
)

BOOK = ThreadType(
    slug="book", category="culture", repeat=2, list_evidence="read",
    records=records(
        "book author book_about",
        ("The Salt Road", "Imogen Hale", "two sisters who walk across the Sahara to find their father"),
        ("Nine Winters", "Pavel Drozd", "a lighthouse keeper who is the last person left on a frozen island"),
        ("The Glass Orchard", "Amara Obi", "a family that grows fruit made of glass in 1920s Lagos"),
        ("Quiet Machines", "Lena Fischer", "a robot who works as a night nurse and starts writing poetry"),
        ("A Map of Small Rooms", "Thomas Aldine", "a man who inherits a hotel where every room holds a different decade"),
        ("The Cartographer's Daughter", "Rosa Vidal", "a girl who finds her mother's secret maps of an island that isn't there"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "I just finished {book} by {author}. It's about {book_about}, and I cried on the bus.",
                 "You have to read {book}. {author} wrote it. It's about {book_about}.",
                 evidence="read"),
            line(YOU, "Adding it to my list right now.", "Ooh, is it sad the whole way through?", "I've heard of that one! Is it worth the hype?"),
            line(ME, "It's sad but hopeful. The last chapter wrecked me.", "Worth it. I'll lend you my copy."),
        )),
    ),
    questions=(
        ask("single", "read", "{book} by {author}", "Which novel did {Me} recommend?", "What book did {Me} say made {them} cry?"),
        ask("single", "read", "{book_about}", "What is the plot of the book {Me} recommended?"),
        ask("single", "read", "{author}", "Who wrote the book {Me} finished recently?"),
    ),
)

CONCERT = ThreadType(
    slug="concert", category="culture",
    records=records(
        "band venue concert_moment",
        ("The Paper Kites", "an old church turned into a music hall", "they played the last song unplugged in the middle of the crowd"),
        ("a jazz trio called Blue Hour", "a basement club with twenty tables", "the drummer played a whole solo with kitchen spoons"),
        ("Fever Lake", "the big arena", "the singer brought a kid on stage to play tambourine"),
        ("the city symphony orchestra", "the concert hall by the river", "the whole audience stood up after the cello solo"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "We saw {band} last night at {venue}. My ears are still ringing.",
                 "Last night was {band}, live, at {venue}. Best gig in years.",
                 evidence="gig"),
            line(YOU, "Oh I'm so jealous. Were they good live?", "Was it packed?", "Did they play the old stuff?"),
            line(ME, "The best part: {concert_moment}.", "Magical. At the end {concert_moment}.", evidence="moment"),
        )),
    ),
    questions=(
        ask("single", "gig", "{band}", "Which band did {Me} see in concert?", "What music did {Me} go out to hear?"),
        ask("single", "moment", "{concert_moment}", "What was special about the concert {Me} went to?"),
        ask("temporal", "gig", "", "When did {Me} go to see {band}?"),
        ask("multi", "gig moment", "{band} at {venue}; {concert_moment}", "Who did {Me} see live, where, and what was the best moment?"),
    ),
)

CAR = ThreadType(
    slug="car", category="money",
    records=records(
        "breakdown_place car_fault new_car",
        ("on the motorway on the way to the airport", "the gearbox", "a second-hand electric hatchback"),
        ("in the supermarket car park", "the head gasket", "an old Volvo estate with a hundred thousand miles on it"),
        ("halfway up a mountain road", "the clutch", "a small hybrid in a very loud orange"),
        ("outside the school gates", "the timing belt", "a used camper van we're calling the Biscuit Tin"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "The car died {breakdown_place}. The mechanic says it's {car_fault} and it's not worth fixing.",
                 "Our poor car gave up {breakdown_place}. {car_fault} is gone, apparently, and the repair costs more than the car.",
                 evidence="breakdown"),
            line(YOU, "Oh no, what a nightmare.", "Did you get home okay?", "That car had a good run, to be fair."),
        )),
        Stage((2, 5), (
            line(ME, "We replaced the old car, by the way. We went for {new_car}.",
                 "Update on the car saga: we bought {new_car}.", evidence="bought"),
            line(YOU, "Ooh, take me for a drive!", "Nice choice. Is it comfortable?"),
        )),
    ),
    questions=(
        ask("single", "breakdown", "{car_fault}", "What was broken on {Me}'s old car?", "Why did {Me}'s car need replacing?"),
        ask("single", "bought", "{new_car}", "What vehicle did {Me} buy?", "What did {Me} get to replace the car?"),
        ask("temporal", "breakdown", "", "When did {Me}'s car break down?"),
        ask("multi", "breakdown bought", "{car_fault}; {new_car}", "What happened to {Me}'s car and what did {they} buy instead?"),
    ),
)

VOLUNTEER = ThreadType(
    slug="volunteer", category="community",
    records=records(
        "org volunteer_task volunteer_day volunteer_story",
        ("the food bank", "sorting donations and packing boxes", "Saturdays", "an old man cried when we found him the tinned peaches his late wife used to buy"),
        ("an animal shelter", "walking the dogs nobody else wants to walk", "Sunday mornings", "the oldest dog, a deaf greyhound, finally got adopted"),
        ("a literacy charity", "reading with kids who are behind at school", "Thursday afternoons", "a boy who wouldn't read a word in September read a whole page out loud to me"),
        ("the community garden", "looking after the greenhouse", "Wednesday evenings", "we gave away two hundred tomato plants at the spring fair"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "I've started volunteering at {org} on {volunteer_day}. I'm {volunteer_task}.",
                 "New routine: {volunteer_day} at {org}, {volunteer_task}.", evidence="start"),
            line(YOU, "That's lovely, {me}.", "How did you find them?", "I should really do something like that."),
        )),
        Stage((3, 6), (
            line(ME, "Best moment at {org} so far: {volunteer_story}.", "Something at {org} made my week: {volunteer_story}.",
                 evidence="story"),
            line(YOU, "Oh, that got me.", "That's why you do it, right?"),
        )),
    ),
    questions=(
        ask("single", "start", "{org}", "Where does {Me} volunteer?", "Which charity did {Me} start helping?"),
        ask("single", "start", "{volunteer_task}", "What does {Me} do as a volunteer?"),
        ask("single", "story", "{volunteer_story}", "What touching moment did {Me} have while volunteering?"),
        ask("temporal", "start", "", "When did {Me} begin volunteering at {org}?"),
    ),
)

LANGUAGE = ThreadType(
    slug="language", category="learning",
    records=records(
        "language lang_reason lang_method first_talk",
        ("Italian", "because {partner}'s family is from Sicily", "an app on the bus and a tutor on video once a week", "ordered a whole dinner in Italian and the waiter didn't switch to English"),
        ("Japanese", "for a trip I'm dreaming about", "flashcards every morning with my coffee", "asked for directions in Japanese and actually understood the answer"),
        ("Spanish", "so I can talk to the neighbours properly", "a conversation group at the library", "chatted with the neighbour about her tomatoes for ten minutes in Spanish"),
        ("Portuguese", "because I'd like to work in Brazil one day", "podcasts while I run", "made a joke in Portuguese and people laughed at the joke, not at me"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "I'm learning {language}, {lang_reason}. I'm doing {lang_method}.",
                 "New project: {language}! Mostly {lang_method}, {lang_reason}.", evidence="start"),
            line(YOU, "That's brave. Is the grammar awful?", "Say something to me in it!"),
        )),
        Stage((3, 6), (
            line(ME, "Language milestone: I {first_talk}!", "The {language} is paying off: I {first_talk}.", evidence="milestone"),
            line(YOU, "That's huge. You're basically fluent now.", "Look at you!"),
        )),
    ),
    questions=(
        ask("single", "start", "{language}", "Which language is {Me} studying?"),
        ask("single", "start", "{lang_method}", "How is {Me} learning {language}?", "What method does {Me} use to practise {language}?"),
        ask("single", "milestone", "{first_talk}", "What did {Me} manage to do in {language} for the first time?"),
        ask("temporal", "start", "", "When did {Me} start learning {language}?"),
        ask("multi", "start milestone", "{lang_reason}; {first_talk}", "Why is {Me} learning {language}, and what progress has {they} made?"),
    ),
)

PARTY = ThreadType(
    slug="party", category="family", requires=("partner",),
    records=records(
        "party_theme party_place party_gift party_surprise",
        ("a seventies disco", "the back room of our local pub", "a vintage record player", "{partner}'s old band reunited to play three songs"),
        ("a murder mystery", "a friend's house in the country", "a hot air balloon ride", "{partner} guessed the murderer in the first ten minutes"),
        ("a garden picnic", "the park by the lake", "a weekend at a cabin", "a school friend flew in from Australia as a surprise"),
        ("a karaoke night", "a karaoke bar with private rooms", "a pasta-making class", "{partner}'s grandmother sang the loudest of everyone"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "Top secret: I'm planning a surprise party for {partner}'s birthday. It's going to be {party_theme} at {party_place}.",
                 "Don't breathe a word, but {partner}'s birthday surprise is happening: {party_theme}, at {party_place}.",
                 evidence="plan"),
            line(YOU, "Oh, I love this. Can I come?", "My lips are sealed! What's the present?"),
            line(ME, "The present is {party_gift}. Don't say anything!", "I got {party_gift} as the main gift.", evidence="gift"),
        )),
        Stage((2, 4), (
            line(YOU, "Did the surprise work?", "How was the party? Was {partner} surprised?"),
            line(ME, "{partner} had no idea! And the best bit: {party_surprise}.", "It worked, {partner} was speechless! {party_surprise}, and I nearly cried.",
                 evidence="party"),
            line(YOU, "That's the best. Well done on keeping the secret.", "I'm so glad it went well."),
        )),
    ),
    questions=(
        ask("single", "plan", "{party_theme} at {party_place}", "What kind of party did {Me} organise for {partner}?", "What was the theme of {partner}'s surprise party?"),
        ask("single", "gift", "{party_gift}", "What birthday present did {Me} get for {partner}?"),
        ask("single", "party", "{party_surprise}", "What was the highlight of {partner}'s surprise party?"),
        ask("temporal", "party", "", "When did the surprise party for {partner} happen?"),
        ask("multi", "gift party", "{party_gift}; {party_surprise}", "What did {Me} give {partner} and how did the surprise party go?"),
    ),
)

HEALTH = ThreadType(
    slug="health", category="health",
    records=records(
        "injury injury_how treatment",
        ("a sprained ankle", "stepping off a kerb while reading my phone", "a boot and crutches for three weeks"),
        ("a broken wrist", "slipping on ice outside the bakery", "a cast up to my elbow for six weeks"),
        ("a pulled back muscle", "lifting a box of books the wrong way", "physio twice a week and no lifting"),
        ("a cracked rib", "falling off a ladder while hanging fairy lights", "painkillers and a month of no sport"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "Bit of a disaster: I've got {injury}. I did it {injury_how}.", "So I hurt myself. {injury} from {injury_how}. Very embarrassing.",
                 evidence="injury"),
            line(YOU, "Oh no! Are you okay?", "Ouch. That's so annoying.", "You poor thing. Need anything?"),
            line(ME, "The doctor gave me {treatment}. I'm going to be so bored.", "It's {treatment}, so I'm a couch potato for a while.",
                 evidence="treatment"),
        )),
    ),
    questions=(
        ask("single", "injury", "{injury}", "How did {Me} get hurt?", "What injury did {Me} have?"),
        ask("single", "treatment", "{treatment}", "What treatment did the doctor give {Me}?"),
        ask("temporal", "injury", "", "When did {Me} get injured?"),
        ask("multi", "injury treatment", "{injury}; {treatment}", "What happened to {Me} and how is it being treated?"),
    ),
)

RECIPE = ThreadType(
    slug="recipe", category="food",
    records=records(
        "dish family_cook secret",
        ("fish stew", "my grandmother", "a spoon of smoked paprika and a splash of white wine at the very end"),
        ("dumplings", "my aunt", "a little grated ginger and letting the filling rest overnight"),
        ("lemon cake", "my grandad", "soaking it in warm syrup while it's still in the tin"),
        ("lentil soup", "my mother-in-law", "a handful of dried mint crumbled in right before serving"),
        ("meatballs", "my great-aunt", "breadcrumbs soaked in milk and frying them in two batches"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "I finally tried making {family_cook}'s {dish} for the first time. It tasted exactly like being nine again.",
                 "I cooked the {dish} {family_cook} used to make on Sundays. Nearly as good as hers!", evidence="cooked"),
            line(YOU, "What's the trick? Mine never tastes like that.", "You need to make it for me!"),
            line(ME, "The secret to the {dish} is {secret}.", "Turns out the trick with {dish} is {secret}.", evidence="secret"),
        )),
    ),
    questions=(
        ask("single", "cooked", "{family_cook}'s {dish}", "Which family recipe did {Me} cook?"),
        ask("single", "secret", "{secret}", "What is the secret to {Me}'s {dish}?", "What trick makes the {dish} taste right?"),
        ask("multi", "cooked secret", "{dish}; {secret}", "What dish did {Me} recreate from a relative and what's the key step?"),
    ),
)

GARDEN = ThreadType(
    slug="garden", category="home",
    records=records(
        "plant garden_pest harvest",
        ("tomatoes", "slugs", "twelve kilos of tomatoes, so we're making sauce for the winter"),
        ("chillies", "aphids", "so many chillies that I'm giving jars of hot sauce to everyone"),
        ("strawberries", "the neighbour's pigeons", "enough strawberries for one very small but very proud jam"),
        ("courgettes", "powdery mildew", "courgettes the size of baseball bats"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "I've turned the balcony into a little farm. Growing {plant} from seed this year.",
                 "Gardening update: {plant} in pots on the balcony, all grown from seed.", evidence="plant"),
            line(YOU, "Who are you and what have you done with my friend?", "Ooh, fresh {plant}!"),
        )),
        Stage((2, 5), (
            line(ME, "The balcony war continues, I'm losing to {garden_pest}.", "My plants are under attack from {garden_pest}.",
                 evidence="pest"),
            line(YOU, "Nature is brutal.", "Have you tried coffee grounds? My mum swears by them."),
        )),
        Stage((2, 5), (
            line(ME, "The harvest came in: {harvest}.", "Farm report: {harvest}.", evidence="harvest"),
            line(YOU, "Save me some!", "That's amazing for a balcony."),
        )),
    ),
    questions=(
        ask("single", "plant", "{plant}", "What is {Me} growing on the balcony?"),
        ask("single", "pest", "{garden_pest}", "What has been attacking {Me}'s plants?"),
        ask("single", "harvest", "{harvest}", "How big was {Me}'s harvest?"),
        ask("multi", "pest harvest", "{garden_pest}; {harvest}", "What problems did {Me}'s balcony garden have and what did it produce in the end?"),
        ask("multi", "plant pest harvest", "{plant}; {garden_pest}; {harvest}", "What did {Me} grow at home this year, what went after it, and how much came of it?"),
    ),
)

MOVE = ThreadType(
    slug="move", category="home",
    records=records(
        "neighbourhood new_home move_detail",
        ("the old harbour district", "a flat above a bakery", "it smells of fresh bread every morning at six"),
        ("the north side near the park", "a narrow townhouse with a yellow door", "there's a fig tree in the back yard"),
        ("a village twenty minutes out of town", "a cottage with a wood stove", "the only shop closes at four and the bus comes twice a day"),
    ),
    stages=(
        Stage((0, 0), (
            line(ME, "We put in an offer on {new_home} in {neighbourhood}!", "Big decision: we're trying to buy {new_home} in {neighbourhood}.",
                 evidence="offer"),
            line(YOU, "Fingers crossed!", "That sounds perfect for you."),
        )),
        Stage((2, 5), (
            line(ME, "We got the keys! Boxes everywhere, but the best part is {move_detail}.", "We've moved! And {move_detail}.",
                 evidence="moved"),
            line(YOU, "Housewarming when?", "Congratulations on the new place!"),
        )),
    ),
    questions=(
        ask("single", "offer", "{new_home} in {neighbourhood}", "Where is {Me} moving to?", "What kind of home did {Me} make an offer on?"),
        ask("single", "moved", "{move_detail}", "What does {Me} love about the new home?"),
        ask("temporal", "moved", "", "When did {Me} move into the new place?"),
    ),
)

THREADS: tuple[ThreadType, ...] = (
    DOG, CAT, TRIP, HOBBY, RACE, NEW_JOB, WORK, WEDDING, PARENT, KID, HOME, BOOK, CONCERT, CAR,
    VOLUNTEER, LANGUAGE, PARTY, HEALTH, RECIPE, GARDEN, MOVE,
)

# List questions: their evidence is the `list_evidence` turn of each of the person's
# threads of these kinds (asked only when the person has two or three of them).
LIST_QUESTIONS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("trip",), ("Which places has {Me} planned trips to?", "Where has {Me} been travelling lately?")),
    (("hobby",), ("What hobbies has {Me} taken up?", "Which classes is {Me} attending these days?")),
    (("dog", "cat"), ("What pets does {Me} have?", "Which animals live with {Me}?")),
    (("book",), ("What books has {Me} recommended?", "Which novels has {Me} been reading?")),
)
