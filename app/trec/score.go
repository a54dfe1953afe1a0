package trec

import "eval752/app/trecio"

// readScore reads a run line's score field as trec_eval-mode does
// (trecio.LenientScore): its atof value, and msg saying why it is refused
// ("" when it is a finite number written whole).
func readScore(sim, qid []byte) (float64, string) { return trecio.LenientScore(sim, qid) }
