"""Word lists for the synthetic vault: a general English vocabulary and topic clusters.

The generator mixes a Zipf-weighted general vocabulary with the terms of one or two
topics per note, so BM25 and the vectors have real signal to discriminate on (a note
about sourdough and a note about Kafka share "the", "week" and "decided", not
"starter" and "consumer"). Plain data, no logic: ``generate.py`` does the sampling.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    slug: str
    domain: str  # top-level folder
    tags: tuple[str, ...]
    terms: tuple[str, ...]  # nouns and noun-like words specific to the topic


def _topic(slug: str, domain: str, tags: str, terms: str) -> Topic:
    return Topic(slug, domain, tuple(tags.split()), tuple(dict.fromkeys(terms.split())))


TOPICS: tuple[Topic, ...] = (
    _topic("data-pipeline", "work", "harbor pipeline data", """
        kafka consumer producer topic partition offset lag schema registry parquet
        warehouse backfill ingestion transform dbt dagster airflow merge snapshot staging
        event stream batch latency throughput watermark dedup late arrival retention
        compaction replay checkpoint connector sink source lineage freshness finance
        analytics table column partitioning bucket manifest orchestration sensor"""),
    _topic("deployment", "work", "deploy release ops", """
        deploy release rollback canary rollout pipeline artifact container image registry
        helm chart manifest staging production hotfix changelog version tag branch
        approval gate smoke healthcheck probe readiness liveness cutover blue green
        feature flag toggle migration downtime window runbook pager incident freeze
        build cache runner workflow secret environment promotion"""),
    _topic("kubernetes", "work", "infra k8s", """
        cluster node pod namespace deployment statefulset daemonset ingress service
        controller operator scheduler kubelet etcd quota limit request autoscaler replica
        volume claim storageclass configmap secret sidecar mesh envoy istio certificate
        taint toleration affinity eviction drain upgrade kubectl terraform provider
        module state backend vpc subnet loadbalancer dns"""),
    _topic("frontend", "work", "frontend web", """
        component react svelte hook state store reducer props render hydration bundle
        webpack vite typescript eslint stylesheet tailwind layout grid flexbox breakpoint
        accessibility aria contrast focus keyboard screenreader viewport animation
        transition router route form validation modal tooltip dropdown skeleton spinner
        lighthouse storybook snapshot fixture playwright"""),
    _topic("machine-learning", "work", "ml models", """
        model training dataset embedding vector transformer tokenizer checkpoint epoch
        gradient optimizer learning rate batch overfitting validation benchmark accuracy
        precision recall metric baseline ablation inference quantization distillation
        finetuning prompt evaluation annotation label classifier regression cluster
        feature pipeline notebook experiment tracking hyperparameter"""),
    _topic("databases", "work", "database sql", """
        postgres sqlite index query planner vacuum autovacuum replication replica primary
        failover backup restore dump transaction isolation deadlock lock migration schema
        constraint foreign key trigger view materialized partition shard connection pool
        pgbouncer latency slowlog explain analyze btree gin wal checkpoint bloat tablespace"""),
    _topic("security", "work", "security", """
        vulnerability patch advisory cve audit pentest phishing password passkey mfa
        token session cookie csrf xss injection sandbox firewall vpn certificate rotation
        secret vault keyring encryption signature hash salt breach disclosure bounty scanner
        dependency sbom permission role policy least privilege"""),
    _topic("hiring", "work", "hiring team", """
        candidate interview recruiter offer salary equity referral resume portfolio
        onsite panel rubric scorecard feedback debrief headcount requisition onboarding
        probation mentor buddy laptop contract notice relocation visa sponsorship
        takehome exercise pairing culture values calibration"""),
    _topic("management", "work", "meetings team", """
        standup retro planning roadmap quarter okr goal milestone deadline priority
        backlog ticket sprint estimate velocity stakeholder sync agenda minutes decision
        escalation budget forecast review performance promotion oneonone delegation
        offsite workshop proposal memo timeline dependency risk"""),
    _topic("cooking", "home", "cooking food", """
        recipe sourdough starter flour dough knead proof oven crust loaf butter garlic
        onion shallot tomato basil oregano thyme rosemary olive oil vinegar lemon pasta
        risotto broth stock simmer braise roast skillet marinade spice cumin paprika
        chickpea lentil curry coconut rice noodle dumpling"""),
    _topic("gardening", "home", "garden plants", """
        garden seedling compost mulch soil fertilizer tomato zucchini pepper lettuce
        spinach herb basil raised bed trellis pruning watering irrigation hose aphid slug
        snail frost greenhouse cutting perennial annual bulb tulip dahlia rose hedge lawn
        germination harvest pollinator bee"""),
    _topic("renovation", "home", "house renovation", """
        kitchen bathroom tile grout plaster drywall paint primer ceiling floorboard
        insulation window frame plumber electrician contractor quote invoice permit
        wiring socket boiler radiator heatpump thermostat damp mould ventilation roof
        gutter skirting cabinet countertop sink faucet"""),
    _topic("finance", "home", "money finance", """
        budget savings pension mortgage rent invoice receipt expense tax refund deduction
        accountant portfolio index fund dividend interest rate inflation loan credit
        card statement subscription insurance premium deductible emergency fund
        spreadsheet allowance bonus payslip"""),
    _topic("paperwork", "home", "admin paperwork", """
        passport visa residency permit appointment form certificate notary registration
        declaration deadline renewal license fine court landlord lease deposit utility
        electricity water internet contract cancellation letter stamp embassy consulate
        municipality census"""),
    _topic("family", "people", "family kids", """
        school teacher homework birthday party present grandparents cousin daycare
        pickup dentist pediatrician vaccination lunchbox playground bedtime story swimming
        lessons uniform holiday sleepover babysitter allowance chores tablet screentime
        football recital"""),
    _topic("friends", "people", "friends social", """
        dinner brunch drinks barbecue wedding anniversary housewarming reunion gossip
        favour advice gift postcard visit weekend trip invitation rsvp toast speech
        photographs playlist karaoke picnic boardgame quiz"""),
    _topic("health", "health", "health medical", """
        doctor appointment prescription pharmacy dosage allergy antihistamine bloodwork
        cholesterol vitamin physiotherapy knee shoulder back posture sleep insomnia
        headache migraine dentist checkup vaccine referral specialist scan xray symptom
        recovery stretching hydration"""),
    _topic("running", "health", "running fitness", """
        marathon halfmarathon tempo interval longrun pace cadence stride shoes trail track
        hill repeats taper race bib splits heartrate zone threshold vo2max recovery foam
        roller injury shin splints hamstring calf warmup cooldown parkrun"""),
    _topic("cycling", "hobbies", "cycling bike", """
        bike bicycle saddle handlebar derailleur chain cassette gear brake pad tyre tube
        puncture pump helmet commute climb descent gravel route gpx strava cadence
        wattage bikepacking pannier lock frame carbon steel fork"""),
    _topic("photography", "hobbies", "photography camera", """
        camera lens aperture shutter exposure iso focus bokeh tripod filter raw lightroom
        darkroom film negative scanner print framing composition portrait landscape
        sunrise golden hour histogram whitebalance sensor mirrorless prime zoom"""),
    _topic("music", "hobbies", "music practice", """
        guitar piano chord scale arpeggio metronome tempo rhythm strumming fingerpicking
        sheet notation practice recital teacher lesson song melody harmony capo string
        amplifier pedal reverb recording ukulele improvisation ear training"""),
    _topic("reading", "learning", "books reading", """
        novel chapter author essay memoir biography library bookshop kindle paperback
        highlight quote bookmark review bookclub fiction nonfiction poetry translation
        publisher edition series sequel narrator plot character ending"""),
    _topic("language", "learning", "portuguese language", """
        portuguese vocabulary grammar verb conjugation subjunctive pronunciation accent
        flashcard anki tutor conversation lesson exercise dictation listening podcast
        subtitle phrasebook idiom tense preposition article gender plural exam"""),
    _topic("travel", "travel", "travel trips", """
        flight airport boarding gate luggage suitcase passport hotel hostel booking
        itinerary train ferry rental car visa currency adapter jetlag layover museum
        beach mountain hike guide map neighbourhood restaurant reservation souvenir"""),
    _topic("hiking", "travel", "hiking outdoors", """
        trail summit ridge valley hut refuge backpack tent sleeping bag stove water filter
        boots blisters poles map compass elevation switchback scramble glacier snowfield
        weather forecast thunderstorm headlamp campsite permit"""),
    _topic("astronomy", "hobbies", "astronomy stars", """
        telescope eyepiece mount tracking galaxy nebula cluster planet jupiter saturn moon
        crater eclipse meteor shower constellation orion polaris darksky light pollution
        stargazing astrophotography stacking exposure guiding"""),
    _topic("coffee", "home", "coffee", """
        espresso grinder burr dose yield extraction portafilter tamp crema pourover filter
        kettle gooseneck roast bean origin washed natural bloom brew ratio aeropress
        latte cappuccino milk frother descaling"""),
    _topic("woodworking", "hobbies", "woodworking workshop", """
        chisel plane saw dovetail mortise tenon joint glue clamp sandpaper finish oil
        varnish oak walnut birch plywood workbench jig router drill bit lathe shavings
        measurement square marking gauge"""),
    _topic("pets", "home", "dog pets", """
        dog puppy leash harness walk vet vaccination kibble treat training recall sit stay
        crate kennel groomer flea tick worming microchip insurance fetch park toy chew
        sitter"""),
    _topic("car", "home", "car maintenance", """
        car service oil filter tyres brakes battery mechanic garage inspection mileage
        fuel charging station insurance registration parking ticket windscreen wiper
        coolant alignment dashboard warning light clutch gearbox"""),
    _topic("observability", "work", "monitoring ops", """
        metric dashboard grafana prometheus alert alertmanager threshold slo sli
        errorbudget trace span opentelemetry log loki elasticsearch kibana cardinality
        histogram percentile scrape exporter oncall pager escalation postmortem timeline
        anomaly saturation uptime synthetic heartbeat retention sampling"""),
    _topic("api-design", "work", "api backend", """
        endpoint rest graphql grpc protobuf openapi swagger pagination cursor ratelimit
        throttling idempotency webhook callback versioning deprecation payload header
        authentication oauth scope jwt serializer validation middleware gateway
        contract backwards compatibility client sdk"""),
    _topic("mobile", "work", "mobile app", """
        android ios swift kotlin flutter emulator simulator appstore playstore testflight
        crash crashlytics notification push permission deeplink offline sync battery
        screenshot onboarding tablet orientation gesture widget build signing provisioning"""),
    _topic("support", "work", "support customers", """
        ticket escalation customer complaint refund churn renewal helpdesk zendesk
        macro sla backlog triage bug reproduction workaround knowledgebase faq survey nps
        feedback chargeback invoice outage apology callback"""),
    _topic("climbing", "hobbies", "climbing", """
        boulder crag belay rope harness carabiner quickdraw chalk crimp sloper jug
        overhang slab traverse project redpoint onsight grade beta campus hangboard
        fingerboard tendon pulley gym topout anchor rappel"""),
    _topic("chess", "hobbies", "chess", """
        opening gambit sicilian endgame middlegame rook bishop knight pawn queen king
        castle checkmate stalemate blunder tactic puzzle rating elo tournament blitz
        rapid clock analysis engine stockfish repertoire"""),
    _topic("writing", "learning", "writing blog", """
        draft essay newsletter blog post outline paragraph headline editor proofread
        typo manuscript pitch publication deadline substack reader subscriber archive
        footnote citation wordcount revision journal prompt"""),
    _topic("home-automation", "home", "smarthome", """
        homeassistant zigbee zwave sensor thermostat bulb dimmer automation scene
        routine hub bridge raspberry firmware mqtt nodered doorbell camera motion
        humidity schedule presence energy meter plug"""),
    _topic("moving", "home", "moving house", """
        movers boxes packing tape inventory van storage unit keys handover inspection
        utilities address change postal forwarding deposit cleaning landlord viewing
        offer survey conveyancing solicitor completion"""),
    _topic("brewing", "hobbies", "beer brewing", """
        wort hops malt yeast fermenter airlock hydrometer gravity mash sparge boil
        sanitizer bottling keg carbonation lager stout ipa saison dryhop cooling
        fermentation temperature recipe batch"""),
)

# General vocabulary, roughly most common first (the generator weights by rank).
NOUNS: tuple[str, ...] = tuple(dict.fromkeys("""
    time week day year month morning evening night weekend afternoon people team work
    plan idea problem question answer reason result change issue note list thing way
    part place point case group number fact hand home house room door car street city
    country world family friend child parent brother sister partner colleague manager
    client customer user owner neighbour teacher doctor student expert office company
    business project system process service product market price cost money budget
    report document file folder email message call meeting conversation discussion
    decision agreement contract deadline schedule calendar appointment reminder task
    goal step detail example version copy draft summary update status progress risk
    chance choice option solution mistake error warning lesson experience memory habit
    routine rule policy standard method approach pattern structure design model
    picture photo video story book article letter paper page chapter line word name
    title topic subject area field level stage phase period moment minute hour second
    season spring summer autumn winter rain snow wind weather sun light dark color
    food meal breakfast lunch dinner coffee tea water bread fruit vegetable kitchen
    table chair desk window wall floor garden street road bridge river lake sea beach
    mountain forest park station airport hotel shop market school university library
    hospital museum church restaurant cafe bar club gym pool court office building
    computer phone laptop screen keyboard network server website app account password
    backup storage memory disk battery cable printer camera headphones charger
    energy health body head heart back knee hand foot eye voice mind feeling mood
    stress focus attention interest energy patience confidence trust respect support
    help advice feedback review comment reply request offer invitation gift favour
    trip journey visit holiday vacation flight ticket bag suitcase map guide route
    game match race sport music song concert film movie show series episode event
    party festival birthday wedding anniversary ceremony dinner celebration surprise
    tool machine engine device part piece component material wood metal glass paper
    plastic box bottle cup plate knife spoon bowl pan pot oven fridge shelf drawer
    bill invoice receipt payment account bank loan tax salary bonus expense saving
    law court judge lawyer police government state region district neighbourhood
    community village town capital border language history culture science art
    nature animal dog cat bird tree flower grass plant seed leaf stone sand dust
    noise sound silence smell taste touch view sight scene landscape horizon sky
    interview hiring offer role position career promotion training course class exam
    test grade skill talent strength weakness effort attempt success failure win loss
    balance limit range scale size weight length height depth distance speed pace
    direction position corner edge side middle center top bottom front surface
    knowledge information data evidence source reference quote link record history
    context background situation condition environment setting framework baseline
    priority concern doubt fear hope wish dream promise commitment responsibility
    shoulder elbow wrist ankle finger stomach throat skin hair tooth blood bone
    muscle breath pulse fever cough cold flu pain bruise scar bandage pill tablet
    jacket coat shirt sweater trousers jeans dress skirt shoe boot sock hat scarf
    glove umbrella wallet purse key ring watch necklace glasses mask towel blanket
    pillow mattress sofa couch lamp curtain carpet rug mirror clock vase frame
    basket bucket ladder hammer nail screw bolt wrench tape rope wire hose brush
    sponge soap detergent bin bag envelope parcel package label sticker stamp pen
    pencil notebook marker eraser ruler calculator stapler clip folder binder
    agenda outline draft template checklist roadmap spreadsheet slide diagram chart
    graph table matrix formula estimate forecast target threshold benchmark metric
    signal trend spike drop peak average median total share portion fraction
    percentage ratio rate factor variable constant parameter argument input output
    feature bug patch fix release build branch commit merge conflict ticket queue
    batch job worker thread process loop signal event trigger handler callback
    promise future result error exception crash timeout retry fallback default
    setting preference profile account login session token cookie cache buffer
    channel stream pipe socket port protocol packet request response header body
    neighbour landlord tenant roommate guest host visitor stranger crowd audience
    fan critic author reader writer editor publisher designer engineer developer
    analyst scientist researcher architect builder plumber electrician carpenter
    painter gardener cleaner driver pilot nurse surgeon dentist therapist coach
    trainer mentor intern volunteer organiser speaker moderator chair secretary
    treasurer director founder investor advisor consultant contractor supplier
    vendor partner competitor rival ally committee board council agency bureau
    department division unit branch chapter circle club society union association
    opportunity threat advantage drawback benefit downside upside tradeoff compromise
    shortcut detour delay gap overlap conflict tension pressure crisis emergency
    accident incident outage failure recovery comeback milestone breakthrough
    """.split()))

VERBS: tuple[str, ...] = tuple(dict.fromkeys("""
    decided agreed asked answered noticed mentioned suggested explained discussed
    planned booked cancelled moved changed fixed broke started finished stopped
    tried tested checked reviewed approved rejected accepted refused postponed
    delayed scheduled rescheduled confirmed forgot remembered learned taught showed
    found lost bought sold paid borrowed lent sent received wrote read called met
    visited left arrived returned travelled walked drove cooked baked cleaned washed
    repaired replaced installed removed updated upgraded downgraded migrated deployed
    released shipped merged split compared measured counted estimated calculated
    increased reduced doubled improved simplified documented recorded described
    promised preferred liked loved hated enjoyed missed needed wanted expected hoped
    worried doubted assumed guessed realised understood believed considered
    recommended warned reminded encouraged helped supported blocked allowed prevented
    organised prepared packed ordered delivered collected picked dropped kept shared
    published presented argued negotiated signed renewed extended shortened closed
    opened locked unlocked joined quit hired interviewed onboarded trained mentored
    ran cycled swam climbed hiked practised played watched listened photographed
    planted watered pruned harvested painted sanded drilled measured cut glued
    debugged profiled benchmarked refactored configured monitored restarted rotated
    borrowed copied pasted typed printed scanned uploaded downloaded synced
    archived deleted restored renamed sorted filtered searched browsed clicked
    tapped swiped scrolled logged flagged starred pinned muted blocked reported
    thanked apologised complained praised criticised questioned challenged defended
    admitted denied confessed insisted hesitated wondered imagined pictured sketched
    drafted edited proofread rewrote summarised translated transcribed annotated
    highlighted underlined circled crossed ticked signed stamped filed submitted
    withdrew deposited invested saved spent wasted earned charged refunded billed
    fed walked groomed vaccinated adopted rescued fostered housed hosted invited
    greeted hugged waved smiled laughed cried sighed shouted whispered sang danced
    """.split()))

ADJECTIVES: tuple[str, ...] = tuple(dict.fromkeys("""
    new old good bad great small large big little long short high low early late
    important main different same possible likely simple easy hard difficult clear
    quick slow fast busy quiet loud cheap expensive free full empty open closed
    recent current previous next last final first second third whole real true
    useful useless helpful careful careless strange normal usual unusual common rare
    urgent optional necessary required expected unexpected obvious subtle minor major
    serious funny pleasant annoying tired happy sad angry calm nervous excited curious
    warm cold hot cool dry wet heavy light bright dark clean dirty broken stable flaky
    reliable noisy smooth rough tight loose safe risky private public local remote
    weekly daily monthly yearly annual quarterly temporary permanent manual automatic
    official informal formal personal shared internal external technical practical
    detailed rough brief complete partial exact approximate fresh stale healthy sick
    ambitious modest generous stingy patient impatient honest vague precise sloppy
    tidy messy crowded empty spacious cramped cosy bare fancy plain elegant ugly
    pretty handsome tall narrow wide deep shallow thick thin sharp blunt soft firm
    sticky slippery bitter sweet sour salty spicy bland crispy juicy ripe rotten
    frozen boiling mild harsh gentle fierce brave shy proud humble grateful jealous
    lonely friendly hostile polite rude cheerful gloomy hopeful doubtful confident
    anxious relaxed sleepy alert eager reluctant bored thrilled surprised puzzled
    confused certain uncertain doubtful suspicious trusted famous unknown ancient
    modern classic vintage trendy outdated obsolete upcoming overdue pending active
    idle dormant visible hidden silent verbose concise lengthy endless finite
    """.split()))

ADVERBS: tuple[str, ...] = tuple(dict.fromkeys("""
    quickly slowly carefully finally probably certainly really almost already again
    still often usually sometimes rarely never always recently soon later together
    apparently honestly clearly mostly partly nearly barely roughly exactly simply
    especially eventually immediately gradually suddenly quietly openly briefly
    frankly luckily sadly happily oddly surprisingly thankfully hopefully
    regularly occasionally constantly rapidly steadily firmly gently loosely
    politely rudely kindly harshly badly properly directly instantly shortly
    """.split()))

PEOPLE: tuple[str, ...] = tuple(dict.fromkeys("""
    Maya Rui Priya Lars Joao Ana Sofia Tiago Ines Marta Pedro Miguel Carla Helena Nuno
    Beatriz Diogo Leonor Andre Clara Oskar Ingrid Freya Mats Elin Sven Astrid Jonas
    Lena Felix Hannah Paul Emma Noah Mia Leon Julia Tobias Amara Kofi Zainab Tunde
    Chen Wei Mei Hiroshi Yuki Kenji Aiko Arjun Neha Rohan Anika Vikram Fatima Omar
    Layla Yusuf Samir Nadia Olga Dmitri Irina Pavel Katya Tomasz Agnieszka Marek
    Zofia Lucia Mateo Valentina Santiago Camila Diego Isabela Gabriel Rafael Bruno
    Chloe Louis Camille Hugo Manon Lucas Ella Oliver Grace Jack Ruby Harry Alice
    Sam Alex Jordan Taylor Morgan Riley Casey Jamie Robin Noor Sara Eva Ivan Nina
    """.split()))

PLACES: tuple[str, ...] = tuple(dict.fromkeys("""
    Lisbon Porto Berlin Hamburg Munich Amsterdam Rotterdam Paris Lyon Madrid
    Barcelona Valencia Seville London Manchester Edinburgh Dublin Copenhagen Stockholm
    Oslo Helsinki Vienna Prague Warsaw Krakow Budapest Zurich Geneva Milan Turin Rome
    Naples Athens Istanbul Tokyo Kyoto Osaka Seoul Singapore Bangkok Sydney Melbourne
    Toronto Montreal Vancouver Boston Chicago Denver Seattle Portland Austin Mexico
    Lima Santiago Bogota Nairobi Lagos Accra Cairo Marrakesh Sintra Cascais Braga
    Coimbra Faro Madeira Azores
    """.split()))

PREPOSITIONS: tuple[str, ...] = ("before", "after", "during", "for", "with", "without", "about", "around", "near", "since", "until", "despite")

# Sentence shapes. Slots: {n} general noun, {N} its plural, {t} topic term, {T} its plural, {v} verb, {a} adjective,
# {d} adverb, {p} person, {l} place, {r} preposition, {k} number.
TEMPLATES: tuple[str, ...] = (
    "{p} {v} the {t} {r} the {n}.",
    "We {v} the {a} {t} {r} the {t} {n}.",
    "The {t} {n} was {a} this {n}, so {p} {v} it {d}.",
    "{d} the {t} needs the {a} {n} {r} {k} {N}.",
    "I {v} that the {t} and the {t} are {a} {r} {l}.",
    "{p} {v} the {n} about the {t} {r} {p} {v} the {a} {t}.",
    "Next {n} we should check the {t} {t} {d}.",
    "The {a} {t} took {k} {N}, which felt {a}.",
    "{p} thinks the {t} is {a} because the {n} {v} {d}.",
    "Reminder: {p} {v} the {t} before the {a} {n} in {l}.",
    "It turned out the {t} {n} was {a} and {p} {v} the {t}.",
    "Open question: is the {t} {a} enough for the {n}?",
    "{p} and {p} {v} a {a} {t} {r} {l}.",
    "The {n} {r} the {t} was {d} {a}, not {a}.",
    "Keep the {t} {a}; the {t} {n} depends on it.",
    "After {k} {N} the {t} {n} was {a} {r} the {a} {n}.",
    "We {d} {v} the {T} in {l} last {n}.",
    "The {a} {n} is that {p} {v} the {t} {d}.",
    "Note to self: the {t} {t} goes {r} the {n}.",
    "{p} {v} {k} {T} and {v} the rest {d}.",
    "Costs: {k} for the {t}, {k} for the {a} {n}.",
    "Why did the {t} fail? The {n} {v} the {t} {d}.",
    "Try the {a} {t} instead of the {a} {t} next {n}.",
    "{p} said the {t} in {l} is {a} and {a}.",
    "Most {N} here are {a}, but the {T} are {d} {a}.",
    "{p} asked whether the {T} from {l} were {a}.",
    "The {t} and its {T} still need the {a} {n}.",
    "Last {n} {p} {v} the {t} {t}; it was {a}.",
)

LIST_TEMPLATES: tuple[str, ...] = (
    "{a} {t} {r} the {n}",
    "{v} the {t} {d}",
    "ask {p} about the {t}",
    "{t} and {t} ({a})",
    "{k} {T} {r} {l}",
    "check the {a} {n}",
)

HEADINGS: tuple[str, ...] = ("Context", "Notes", "Decisions", "Next steps", "Open questions", "Details", "Log", "Summary", "Ideas", "Follow-up")
