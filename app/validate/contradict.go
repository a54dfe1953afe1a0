package validate

import (
	"sort"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// Contradictory annotations: the same question asked twice about one
// document, once answerable with gold and once unanswerable with empty gold
// (seen in real MMLongBench-Doc data). The duplicate-question key of a b-2
// annotation includes its gold sources — "what is the title?" of two PDFs is
// two questions — so the unanswerable copy, which has none, never collided
// with the answerable one and the contradiction passed.

var ruleB2Contradictory = register(finding.Rule{
	Code:     "b2.contradictory-annotation",
	Severity: finding.Error,
	Description: "The same question (normalised text and modality) about one document is not annotated both answerable, with gold, and unanswerable, with empty gold. " +
		"The document of an annotation without gold is the gold source its query_id names (mmlongbench:<doc>:<row>).",
	Source: "seed 000 §2 constraint 3 (unanswerable=true 的条目 gold 必须为空); seed 003 §4.2 steps 6–7 (独立验证答案、证据和可回答性; 分歧交由…裁决)",
	Hint:   "One of the two annotations is wrong: adjudicate (is the answer on the cited region?), keep the right one and remove the other.",
	Family: "b2",
})

// checkContradictions reports each unanswerable b-2 annotation with empty
// gold whose question an answerable annotation of the same set asks, with
// gold on the document the unanswerable one names. Linear in the number of
// annotations (one map by question; the sources of a question's answerable
// copies are few).
func (c *checker) checkContradictions() {
	type answered struct {
		loc     dataset.Loc
		sources []string
	}
	byQ := map[string][]answered{}
	key := func(r *dataset.Rec[model.B2]) string {
		return namespace(c.ds.Path(r.Loc), model.FormatB2) + "\x00" + r.V.Modality + "\x00" + NormalizeText(r.V.Question)
	}
	// the unanswerable records first: without one there is nothing to
	// contradict, and the answerable ones (nearly all of a large set)
	// need no key
	var unans []*dataset.Rec[model.B2]
	for i := range c.ds.B2 {
		r := &c.ds.B2[i]
		if r.Typed && r.V.Unanswerable && len(r.V.Gold) == 0 && strings.TrimSpace(r.V.Question) != "" {
			unans = append(unans, r)
		}
	}
	if len(unans) == 0 {
		return
	}
	for _, r := range unans {
		byQ[key(r)] = nil // only these questions' answerable copies are kept
	}
	var kb []byte
	for i := range c.ds.B2 {
		r := &c.ds.B2[i]
		if !r.Typed || strings.TrimSpace(r.V.Question) == "" || r.V.Unanswerable || len(r.V.Gold) == 0 {
			continue
		}
		kb = append(append(append(append(append(kb[:0], namespace(c.ds.Path(r.Loc), model.FormatB2)...), 0), r.V.Modality...), 0), NormalizeText(r.V.Question)...)
		cands, asked := byQ[string(kb)]
		if !asked {
			continue
		}
		var src []string
		for _, g := range r.V.Gold {
			if g.SourceID != "" {
				src = append(src, g.SourceID)
			}
		}
		byQ[string(kb)] = append(cands, answered{r.Loc, src})
	}
	for _, cands := range byQ {
		sort.SliceStable(cands, func(i, j int) bool { return locLess(c.ds, cands[i].loc, cands[j].loc) })
	}
	for _, r := range unans {
		// the first answerable copy (path, line) on the document r names
		for _, a := range byQ[key(r)] {
			doc := ""
			for _, s := range a.sources {
				if namesSource(r.V.QueryID, s) && len(s) > len(doc) {
					doc = s
				}
			}
			if doc == "" {
				continue
			}
			c.add(ruleB2Contradictory.At(c.ds.Path(r.Loc), int(r.Line), "/unanswerable",
				"query %q asks the same question about %s as %s, which is answerable with gold there; this one is unanswerable with empty gold: the two annotations contradict each other",
				r.V.QueryID, doc, c.loc(a.loc)))
			break
		}
	}
}

// namesSource reports whether qid names source id s as one of its
// ':'-separated parts ("mmlongbench:PH_2016.pdf:7" names
// "mmlongbench:PH_2016.pdf" and "PH_2016.pdf", not "PH_2016" nor
// "H_2016.pdf"; "mmlongbench:PH_2016.pdf.v2:4" does not name
// "mmlongbench:PH_2016.pdf").
func namesSource(qid, s string) bool {
	for from := 0; s != ""; {
		i := strings.Index(qid[from:], s)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(s)
		if (i == 0 || qid[i-1] == ':') && (end == len(qid) || qid[end] == ':') {
			return true
		}
		from = i + 1
	}
	return false
}

func locLess(ds *dataset.Dataset, a, b dataset.Loc) bool {
	if ds.Path(a) != ds.Path(b) {
		return ds.Path(a) < ds.Path(b)
	}
	return a.Line < b.Line
}
