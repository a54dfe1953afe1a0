package trec

// runid: the run tag (sixth field) of the last result line of the run file,
// as trec_eval keeps it (get_trec_results.c); printed only in the summary.
var _ = register(&Measure{
	Name:    "runid",
	Help:    "Runid given by the results input file (the tag of its last line).",
	Value:   String,
	Average: AvgNone,
	Summary: true,
	calc:    func(*query, *instance, []float64) {},
})
