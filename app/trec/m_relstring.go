package trec

// relstring shows the relevance values of the first N (default 10) retrieved
// docs, one character each: the grade 0-9, '>' above 9, '-' not in the
// qrels, '.' judged with a negative grade, '<' anything else (m_relstring.c).
// Printed only per query, quoted.
var _ = register(&Measure{
	Name: "relstring",
	Help: "The relevance values of the first N (default 10) retrieved docs as a string: the grade if 0-9, '>' if above 9, " +
		"'-' if not in the qrels, '.' if in the qrels but unjudged (negative grade). Printed only for individual queries.",
	Params:   DoubleParams,
	Default:  "10",
	Value:    String,
	Average:  AvgNone,
	PerQuery: true,
	calc: func(q *query, in *instance, _ []float64) {
		n := min(int64(in.doubles[0]), q.numRet)
		if n < 0 {
			n = 0
		}
		b := make([]byte, n)
		for i := range b {
			rel := q.rels[i]
			switch {
			case rel > 9:
				b[i] = '>'
			case rel >= 0:
				b[i] = byte('0' + rel)
			case rel == relNonpool:
				b[i] = '-'
			case rel == relUnjudged:
				b[i] = '.'
			default:
				b[i] = '<'
			}
		}
		q.relString = string(b)
	},
})
