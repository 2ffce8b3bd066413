"""Small talk around the threads: openings, closings and exchanges that hold no fact.

Plain data. ``{me}`` is who says the line, ``{you}`` the friend, ``{city}`` the
speaker's city, ``{job}`` the speaker's job. Some of it touches the same subjects as the
threads (holidays, work, pets) on purpose: real conversations are full of near misses.
"""

from __future__ import annotations

OPENERS: tuple[str, ...] = (
    "Hey {you}! Long time no talk. How's your week going?",
    "Hi {you}, got a minute? I need a break from everything.",
    "Morning! I'm on my second coffee and it's not helping.",
    "{you}! I was just thinking about you. How are things?",
    "Hey you. Are you free to chat for a bit?",
    "Finally a quiet evening. How are you doing, {you}?",
    "Hello hello. Sorry I went silent for a few days.",
    "Hi! It's pouring here in {city}, so I'm hiding indoors and bothering you.",
    "Hey, how was your weekend?",
    "{you}, you will not believe the day I've had.",
    "Good evening from a very tired person.",
    "Hey! I've got ten minutes before my next thing, talk to me.",
    "Hiya. Are you surviving the week?",
    "Hi {you}! It's been ages, or at least it feels like it.",
    "Hey, quick hello before bed.",
    "Right, I'm on the train, so you have my full attention for twenty minutes.",
    "Guess who finally has a free afternoon?",
    "Hey {you}, checking in. Everything okay on your side?",
)

OPENER_REPLIES: tuple[str, ...] = (
    "Hey {you}! Busy but good. You?",
    "Always free for you. What's up?",
    "Ha, same here. Coffee is not doing its job today.",
    "Hi! All good here, just a long week.",
    "I'm here! Tell me everything.",
    "Surviving, barely. How about you?",
    "Hello! Perfect timing, I was procrastinating anyway.",
    "Oh no, what happened?",
    "Quiet, which is exactly what I needed.",
    "Hey you! Better now that I'm sitting down.",
    "Not bad at all. Glad you messaged.",
    "Ugh, don't ask. But you first.",
    "Lovely to hear from you!",
    "Just got home. Perfect moment.",
)

SMALL_TALK: tuple[tuple[str, str], ...] = (
    ("The weather here has been so strange, sunny in the morning and hail by lunch.", "Same here. I've given up dressing for it."),
    ("I've been sleeping terribly this week.", "Try putting the phone in another room. It helped me a bit."),
    ("Have you watched anything good lately? I need a new series.", "I've been rewatching old comedies, honestly. Nothing new grabs me."),
    ("I really need a holiday. Even a long weekend would do.", "Don't we all. Let's plan something someday."),
    ("Work has been okay, nothing exciting, just meetings about meetings.", "The eternal meeting. I know it well."),
    ("I tried to cook something new last night and it was a disaster.", "At least you tried. I had toast for dinner."),
    ("My phone screen cracked again. Third time this year.", "You need one of those ugly rubber cases."),
    ("I walked past our old café today. It's a phone shop now.", "Noooo. That place had the best scones."),
    ("Do you remember that awful karaoke night years ago?", "I have tried very hard to forget it, thank you."),
    ("The neighbours are drilling again. It's been three weeks.", "What are they even building in there?"),
    ("I finally cleaned out my wardrobe. Four bags for the charity shop.", "Very virtuous. Mine is beyond saving."),
    ("I've been trying to drink less coffee. It's going badly.", "Why would you do that to yourself?"),
    ("Spring is finally showing up. The trees on my street are all pink.", "Oh lovely. It still feels like winter here."),
    ("I ran into an old teacher of ours at the supermarket.", "No way. Did they remember you?"),
    ("Traffic was so bad this morning I nearly turned around and went home.", "Sounds like a bike day to me."),
    ("I joined a gym in January and I've been twice.", "That's two more times than me."),
    ("My laptop decided to update itself in the middle of a call.", "Classic. They always know when it matters."),
    ("I've been listening to a podcast about the history of bread. It's weirdly gripping.", "Only you could make bread sound exciting."),
    ("The heating in our place broke for a day and I wore a hat indoors.", "Brr. Is it fixed now?"),
    ("I've started going for a walk at lunch. It helps more than I expected.", "I should do that instead of eating at my desk."),
    ("Do you ever feel like the weeks are getting shorter?", "Every single week. Where did this year go?"),
    ("I bought a fancy candle and now I'm scared to light it.", "Light it! Life is short."),
    ("My inbox has three hundred unread emails and I'm choosing to ignore them.", "A bold strategy. I respect it."),
    ("There's a new bakery near me and I've been every day this week.", "Tell me more, I need cinnamon buns in my life."),
    ("Someone at work brought their dog in today and nobody did any work.", "Best kind of day honestly."),
    ("I keep meaning to call my cousins and never do.", "Do it this weekend, they'll be happy."),
    ("We watched a documentary about octopuses and now I feel guilty about everything.", "They're too clever, it's unsettling."),
    ("I signed up for a newsletter about houseplants. This is who I am now.", "Welcome to middle age, friend."),
    ("I had the weirdest dream that we were back in school taking an exam.", "That dream never goes away, does it?"),
    ("My train was cancelled and I had to get a very expensive taxi.", "The trains are a joke lately."),
    ("I have finally learned how to make decent coffee at home.", "Finally! Years of bad coffee behind you."),
    ("Everyone in the office has a cold. I'm living on vitamin C.", "Stay away from them! Work from home."),
    ("I found a box of old photos from when we were twenty.", "Oh no. Burn the ones from the fancy dress party."),
    ("The local market has these amazing peaches right now.", "Bring me some next time we meet."),
    ("I'm trying to read more and scroll less. Day four.", "Good luck. I last about two days."),
    ("We had friends over on Saturday and I cooked far too much food.", "Leftovers for a week, that's a win."),
    ("My back hurts from sitting all day. I think I need a new chair.", "Get a good one, your back will thank you."),
    ("I finally fixed the wobbly shelf. Only took me a year.", "A year is fast for a shelf, to be fair."),
)

BRIDGES: tuple[str, ...] = (
    "Anyway, enough about me. What's new with you?",
    "But that's my drama. How about you?",
    "Okay, your turn. Anything exciting?",
    "What about you, anything new?",
    "Tell me something good from your side.",
)

CLOSERS: tuple[str, ...] = (
    "I have to run, but this was lovely. Talk soon!",
    "Okay, dinner's ready. Speak later this week?",
    "Right, back to work for me. Thanks for the chat.",
    "I should sleep. Night, {you}!",
    "My stop is next. Catch you soon!",
    "Let's talk again in a few days. Take care.",
    "I'm being called, gotta go. Love to everyone!",
    "That's my break over. Bye for now!",
    "Okay, I'm falling asleep on the sofa. Good night!",
    "Lovely catching up. Let's not leave it so long next time.",
)

CLOSER_REPLIES: tuple[str, ...] = (
    "Bye! Talk soon.",
    "Take care, {you}!",
    "Night! Speak soon.",
    "Good luck with everything, bye!",
    "Always a pleasure. Bye for now.",
    "Later! Sending hugs.",
    "See you, have a good one.",
    "Go go go! Talk soon.",
)
