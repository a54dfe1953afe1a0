package score

import "eval752/app/itemscore"

// flagsForParsed lists the flags the figure of a metric (parsed once by the
// caller) should carry because of an item ("unjudged",
// "unresolved-judgment", "ambiguous-gold"), every one that applies. The
// rule belongs to package itemscore (FlagsFor), which knows each metric's
// depth.
var flagsForParsed = itemscore.FlagsForParsed
