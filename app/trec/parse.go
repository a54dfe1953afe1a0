package trec

import "eval752/app/trecio"

// atof and atol are trec_eval's number readers (C's atof / atol), which the
// measure parameters (-m name.params) and the gain values use as well as
// the run and qrels lines (trecio's Lenient mode).
func atof(b []byte) float64 { return trecio.Atof(b) }
func atol(b []byte) int64   { return trecio.Atol(b) }
