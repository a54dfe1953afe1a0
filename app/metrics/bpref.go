package metrics

// bprefFamily is bpref (Buckley & Voorhees 2004) in trec_eval's corrected
// form: unjudged units are skipped, not counted as non-relevant — the
// measure built for incomplete judgments.
var bprefFamily = Family{
	Name:           "bpref",
	Group:          GroupRetrieval,
	Cutoff:         NoCutoff,
	Help:           "bpref: each relevant retrieved unit scores 1 − (judged non-relevant above it, capped at R) / min(N, R); unjudged units are skipped (trec_eval bpref).",
	Formula:        "(1/R) Σ_{relevant r} (1 − min(nonrel above r, R) / min(N, R)); a term is 1 when nothing non-relevant is above; 0 when R = 0",
	Source:         "Buckley & Voorhees 2004; trec_eval bpref",
	HigherIsBetter: true,
	Compute:        bpref,
}

func bpref(q *Query, _ int) float64 {
	r := q.numRel()
	if r == 0 {
		return 0
	}
	n := q.numNonRel()
	minNR := min(n, r)
	sum, nonrel := 0.0, 0
	for _, c := range q.Ranked {
		if !c.Judged {
			continue
		}
		if relevant(c, q.level()) {
			if nonrel == 0 {
				sum++
			} else {
				sum += 1 - float64(min(nonrel, r))/float64(minNR)
			}
		} else {
			nonrel++
		}
	}
	return sum / float64(r)
}
