/** English vocabulary for the prose generator: frequent words first, so a Zipf pick looks like real text. */
export const ENGLISH_FUNCTION_WORDS = `the of and to a in is that it for was on are as with be by this at from or
have an not but they which you one had we all there their were can been has more if will would so what when
who no about out up into than them then some could other its only these two may any new also after first
just most over such where how our well should between each those because through while both under even
same another being here still many must does before very must since against much during without again
every around however among until upon whether within along toward across behind beyond`
  .split(/\s+/)
  .filter((w) => w.length > 0);

export const ENGLISH_CONTENT_WORDS = `time people way year work day part world life hand system number place case
point group problem fact question week company program government study issue side kind head house service
friend power hour game line end member law car city community name president team minute idea body
information back parent face others level office door health person art war history party result change
morning reason research girl guy moment air teacher force education foot boy age policy process music market
sense nation plan college interest death experience effect use class control care field development role
effort rate heart drug show leader light voice wife police mind price report decision son view relationship
town road arm difference value building action model season society tax director position player record
paper space ground form event official matter center couple site project activity star table need court oil
situation cost industry figure street image phone data picture practice piece land product doctor wall patient
worker news test movie north love support technology step baby computer type attention film tree source
organization hair window evidence population site floor bank rule memory chance picture size environment
file request response message error value output input task agent model review branch commit budget token
window context prompt stage candidate evaluator merger route capacity forecast estimate request boundary
write read build run check measure keep make take give find think tell become leave feel put bring begin
seem help talk turn start show hear play move like live believe hold happen provide sit stand lose pay meet
include continue set learn lead understand watch follow stop create speak allow add spend grow open walk
offer remember consider appear buy wait serve die send expect stay fall cut reach kill remain suggest raise
pass sell require decide return explain hope develop carry break receive agree support hit produce eat cover
catch draw choose cause listen realize place close compare prefer protect record accept announce
good new first last long great little own other old right big high different small large next early young
important few public bad same able late hard major better economic strong possible whole free military true
federal international full special easy clear recent certain personal open red difficult available likely
short single medical current wrong private past foreign fine common poor natural significant similar hot
dead central happy serious ready simple left physical general environmental financial blue democratic dark
various entire close legal religious cold final main green nice huge popular traditional cultural
quickly really almost always often usually perhaps finally already probably simply actually certainly
clearly nearly exactly directly recently slowly carefully suddenly eventually rarely quietly loudly`
  .split(/\s+/)
  .filter((w) => w.length > 0);

/** Longer and technical words: these split into several o200k tokens more often than everyday words. */
export const ENGLISH_LONG_WORDS = `implementation configuration synchronization authentication authorization
infrastructure responsibility characteristics interoperability internationalization acknowledgement
deterministic nondeterministic idempotent serialization deserialization concurrency parallelism throughput
latency observability instrumentation orchestration reconciliation misconfiguration backpressure
compatibility deprecation regression refactoring monomorphization memoization linearizability
serializability transactionally asynchronously heterogeneous homogeneous polymorphism encapsulation
abstraction extensibility maintainability reproducibility verifiability accountability provenance
cryptographic pseudorandom checksum canonicalization normalization tokenization quantization
hyperparameter overfitting underestimation overestimation calibration extrapolation interpolation
counterfactual remediation feasibility utilisation utilization headroom allowance conservative
photosynthesis thermodynamics electromagnetism biodiversity archaeological meteorological
pharmaceutical neurotransmitter mitochondrial chromosomal epidemiological socioeconomic
unbelievably incomprehensible disproportionately counterintuitive misunderstanding
circumstantial entrepreneurial extraordinarily indistinguishable uncharacteristically`
  .split(/\s+/)
  .filter((w) => w.length > 0);

export const PROPER_NOUNS = `Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy
Rupert Sybil Trent Victor Walter London Paris Berlin Tokyo Nairobi Lagos Lima Quito Oslo Helsinki Reykjavik
Wellington Montevideo Ulaanbaatar Kathmandu Thimphu Vientiane Ljubljana Bratislava Tbilisi Yerevan
TypeScript JavaScript Node Linux Docker Kubernetes PostgreSQL Redis GitHub Vitest Pi Fusion Anthropic OpenAI
Monday Tuesday Wednesday Thursday Friday January February March April September October November December`
  .split(/\s+/)
  .filter((w) => w.length > 0);

/** Pieces joined into identifiers (camelCase, snake_case, kebab-case) by the code generators. */
export const IDENT_PARTS = `get set is has can should to from with by for on at of new old raw safe max min
count size length index offset limit total byte bytes token tokens line lines char text json file path dir
name id key value values item items entry entries list map set queue stack node tree edge graph state status
event events task tasks job jobs run runner child parent process pid exit code signal timeout deadline clock
time now start end begin finish open close read write append commit flush sync hash digest seed budget plan
route stage slot model window context prompt request reply response result error errors warn warning info
debug trace log logger config options settings default schema version kind type mode scope policy rule rules
check validate parse render format encode decode build make create update delete remove insert find filter
reduce sort group merge split join trim pad slice chunk batch retry attempt limit cache store buffer stream
reader writer handle handler listener callback promise future async await lock mutex guard token estimate
forecast capacity allowance headroom usage cost input output source target origin host port url uri address
`
  .split(/\s+/)
  .filter((w) => w.length > 0);
