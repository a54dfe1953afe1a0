package validate

import (
	"eval752/app/finding"
)

// Gate 1, TREC files: what trec_eval itself refuses (form_res_rels.c exits 4
// on a duplicate docno of one query, in the run or in the qrels). Grades that
// are not integers are rejected by the reader already.

var (
	ruleTRECRunDup = register(finding.Rule{
		Code:        "trec.run-duplicate-docno",
		Severity:    finding.Error,
		Description: "A run lists each docno at most once per query (trec_eval: \"duplicate docs\", exit 4).",
		Source:      "trec_eval form_res_rels.c (reference/trec/SEMANTICS.md)",
		Hint:        "Keep one line per (query, docno); trec_eval refuses the run otherwise.",
		Family:      "trec",
	})
	ruleTRECQrelsDup = register(finding.Rule{
		Code:        "trec.qrels-duplicate",
		Severity:    finding.Error,
		Description: "A qrels file judges each (query, docno) once (trec_eval refuses duplicates, exit 4).",
		Source:      "trec_eval form_res_rels.c (reference/trec/SEMANTICS.md)",
		Hint:        "Keep one judgment per (query, docno); adjudicate conflicting grades first.",
		Family:      "trec",
	})
)

func (c *checker) checkTREC() {
	for _, rf := range c.ds.Runs {
		first := map[[2]string]int{}
		for _, l := range rf.Lines {
			k := [2]string{l.QID, l.DocNo}
			if f, dup := first[k]; dup {
				c.add(ruleTRECRunDup.At(rf.Path, l.Line, "", "docno %q is listed twice for query %q (first at line %d)", l.DocNo, l.QID, f))
				continue
			}
			first[k] = l.Line
		}
	}
	for _, qf := range c.ds.Qrels {
		type seen struct{ line, grade int }
		first := map[[2]string]seen{}
		for _, q := range qf.Judgments {
			k := [2]string{q.QID, q.DocNo}
			if f, dup := first[k]; dup {
				if f.grade != q.Grade {
					c.add(ruleTRECQrelsDup.At(qf.Path, q.Line, "", "docno %q of query %q is judged again with a different grade (%d here, %d at line %d)", q.DocNo, q.QID, q.Grade, f.grade, f.line))
				} else {
					c.add(ruleTRECQrelsDup.At(qf.Path, q.Line, "", "docno %q of query %q is judged twice (first at line %d)", q.DocNo, q.QID, f.line))
				}
				continue
			}
			first[k] = seen{q.Line, q.Grade}
		}
	}
}
