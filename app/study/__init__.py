"""Study: the tree of variations, its JSON and SGF forms, and the slow work an analysis board asks for
(score estimates, engine hints, parsing uploads) done away from the event loop. See ``docs/study.md``."""
