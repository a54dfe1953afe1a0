package score

import "eval752/app/itemscore"

// flagsFor lists the flags the figure of metric should carry because of
// item it ("unjudged", "unresolved-judgment", "ambiguous-gold"), every one
// that applies. The rule belongs to package itemscore, which knows each
// metric's depth.
var flagsFor = itemscore.FlagsFor
