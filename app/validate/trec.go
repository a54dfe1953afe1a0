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
				c.add(TRECRunDuplicate(rf.Path, l.Line, l.DocNo, l.QID, f))
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
				c.add(TRECQrelsDuplicate(qf.Path, q.Line, q.DocNo, q.QID, q.Grade, f.line, f.grade))
				continue
			}
			first[k] = seen{q.Line, q.Grade}
		}
	}
}

// TRECRunDuplicate is the trec.run-duplicate-docno finding of run line
// line (path), which lists docno again for qid, first listed at line first.
// checkTREC and the streaming validation of plain TREC inputs
// (engine.Validate) report with it.
func TRECRunDuplicate(path string, line int, docno, qid string, first int) finding.Finding {
	return ruleTRECRunDup.At(path, line, "", "docno %q is listed twice for query %q (first at line %d)", docno, qid, first)
}

// TRECQrelsDuplicate is the trec.qrels-duplicate finding of qrels line line
// (path), which judges (qid, docno) again with grade, first judged at line
// first with firstGrade.
func TRECQrelsDuplicate(path string, line int, docno, qid string, grade, first, firstGrade int) finding.Finding {
	if firstGrade != grade {
		return ruleTRECQrelsDup.At(path, line, "", "docno %q of query %q is judged again with a different grade (%d here, %d at line %d)", docno, qid, grade, firstGrade, first)
	}
	return ruleTRECQrelsDup.At(path, line, "", "docno %q of query %q is judged twice (first at line %d)", docno, qid, first)
}
