package score

import "eval752/app/itemscore"

// flagFor says whether the figure of metric should carry a flag because of
// item it ("unjudged", "unresolved-judgment", "ambiguous-gold" or ""). The
// rule belongs to package itemscore, which knows each metric's depth.
var flagFor = itemscore.FlagFor
