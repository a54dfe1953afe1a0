package itemscore

import (
	"eval752/app/dataset"
	"eval752/app/model"
)

// gradeOf is the human grade of one run's answer to one question: the
// adjudicated line when there is one, else the lowest independent grade
// (the conservative reading of a disagreement, flagged "unadjudicated").
type gradeOf struct {
	grade              int
	supported, total   int
	hasFacts           bool
	unadjudicated      bool
	reviewers, records int
}

// assignGrades gives each run its grades from the loaded rag.grades lines
// (run_id names the run).
func assignGrades(ds *dataset.Dataset, runs []*runOut) {
	type acc struct {
		adj   *model.RAGGrade
		indep []model.RAGGrade
	}
	by := map[string]map[string]*acc{}
	for rec := range typedRecs(ds.Grades) {
		g := rec.V
		if g.ExpertGrade == nil || g.QID == "" || g.RunID == "" {
			continue
		}
		if by[g.RunID] == nil {
			by[g.RunID] = map[string]*acc{}
		}
		a := by[g.RunID][g.QID]
		if a == nil {
			a = &acc{}
			by[g.RunID][g.QID] = a
		}
		if g.Adjudication == "adjudicated" {
			if a.adj == nil {
				g := g
				a.adj = &g
			}
			continue
		}
		a.indep = append(a.indep, g)
	}
	for _, r := range runs {
		for qid, a := range by[r.name] {
			chosen := a.adj
			disagree := false
			if chosen == nil {
				for i := range a.indep {
					if chosen == nil || *a.indep[i].ExpertGrade < *chosen.ExpertGrade {
						chosen = &a.indep[i]
					}
				}
				for _, g := range a.indep {
					disagree = disagree || *g.ExpertGrade != *a.indep[0].ExpertGrade
				}
			}
			if chosen == nil {
				continue
			}
			gr := gradeOf{grade: *chosen.ExpertGrade, unadjudicated: disagree, records: len(a.indep)}
			if chosen.FactsTotal != nil && chosen.FactsSupported != nil {
				gr.supported, gr.total, gr.hasFacts = *chosen.FactsSupported, *chosen.FactsTotal, true
			}
			if r.grades == nil {
				r.grades = map[string]gradeOf{}
			}
			r.grades[qid] = gr
		}
	}
}

// scoreGeneration puts seed 003 §7's generation figures of one answerable
// seed-003 question (docs/metrics.md): citation precision and recall (runs
// that cite), the expert pass, faithfulness and no-evidence share (graded
// answers), complete success, and the error indicator (runs that report
// errors, every set).
func (sc *scorer) scoreGeneration(u *unitSpec, o *output, r *runOut, it *ItemScore) {
	v := &it.Values
	if r.reportsErrors {
		v.Set("system.error", 0)
		if o == nil || o.errText != "" {
			v.Set("system.error", 1)
		}
	}
	if u.rag == nil || !u.Answerable {
		return // unanswerable questions are the refusal metrics' (§7.4)
	}
	g := sc.viewRun(u, r)
	if gr, ok := r.grades[u.ID]; ok && o != nil {
		pass := 0.0
		if gr.grade >= 2 {
			pass = 1
		}
		if x, ok := v.Get("answer.numeric"); ok && x == 0 {
			pass = 0 // §7.1: a numeric answer must also be within tolerance
		}
		v.Set("answer.expert_pass", pass)
		if gr.hasFacts && gr.total > 0 {
			f := float64(min(gr.supported, gr.total)) / float64(gr.total)
			v.Set("faithfulness", f)
			v.Set("no_evidence_share", 1-f)
		}
		if gr.unadjudicated {
			it.Flags = append(it.Flags, "unadjudicated")
		}
	}
	if !r.cites || g == nil || !g.hasRetrieval {
		return
	}
	groups := g.numGold > 0 && !g.noGroups
	if o == nil {
		if groups {
			v.Set("citation.recall", 0)
			v.Set("complete_success", 0)
		}
		return
	}
	supporting, cited := 0, 0
	covered := map[int]bool{}
	for _, c := range o.x().citations {
		if c.ChunkID == "" {
			continue
		}
		cited++
		if _, grade, gold := g.grade(c.ChunkID); grade >= 2 {
			supporting++
			for _, gi := range gold {
				covered[gi] = true
			}
		}
	}
	if cited > 0 {
		v.Set("citation.precision", float64(supporting)/float64(cited))
	}
	if !groups {
		return
	}
	req := g.required
	if req == nil {
		for i := range g.numGold {
			req = append(req, i)
		}
	}
	hit := 0
	for _, gi := range req {
		if covered[gi] {
			hit++
		}
	}
	recall := 0.0
	if len(req) > 0 {
		recall = float64(hit) / float64(len(req))
	}
	v.Set("citation.recall", recall)
	ok := v.At("answer.correct") == 1 && cited > 0 && supporting == cited && recall == 1
	if x, graded := v.Get("answer.expert_pass"); graded {
		ok = ok && x == 1
	}
	if f, has := v.Get("faithfulness"); has {
		ok = ok && f == 1
	}
	v.Set("complete_success", 0)
	if ok {
		v.Set("complete_success", 1)
	}
}

// Agreement is seed 003 §7.6's two-reviewer agreement on one run's answer
// grades: reviewer A is the first reviewer of the run's independent grades
// (file order), B the second; the items are the questions both graded (each
// reviewer's first line per question).
type Agreement struct {
	Run       string  `json:"run"`
	ReviewerA string  `json:"reviewer_a"`
	ReviewerB string  `json:"reviewer_b"`
	Items     int     `json:"items"`
	Raw       float64 `json:"raw"`        // share of items with the same 0–3 grade
	Kappa     float64 `json:"kappa"`      // Cohen's κ on the 0–3 grade (NaN: undefined)
	PassRaw   float64 `json:"pass_raw"`   // same, on pass (grade ≥ 2) / fail
	PassKappa float64 `json:"pass_kappa"` // Cohen's κ on pass / fail
	Others    int     `json:"others"`     // further reviewers, not compared
}

// agreements computes Agreement for every run with two reviewers.
func agreements(ds *dataset.Dataset, runs []*runOut, kappa func(a, b []int) (float64, float64)) []Agreement {
	var out []Agreement
	for _, r := range runs {
		var revs []string
		first := map[string]map[string]int{} // reviewer → qid → grade
		var qorder []string
		for rec := range typedRecs(ds.Grades) {
			g := rec.V
			if g.RunID != r.name || g.ExpertGrade == nil || g.Adjudication == "adjudicated" {
				continue
			}
			if first[g.Reviewer] == nil {
				first[g.Reviewer] = map[string]int{}
				revs = append(revs, g.Reviewer)
			}
			if _, dup := first[g.Reviewer][g.QID]; !dup {
				first[g.Reviewer][g.QID] = *g.ExpertGrade
				qorder = append(qorder, g.QID)
			}
		}
		if len(revs) < 2 {
			continue
		}
		a, b := first[revs[0]], first[revs[1]]
		var ga, gb, pa, pb []int
		seen := map[string]bool{}
		for _, q := range qorder {
			x, okA := a[q]
			y, okB := b[q]
			if !okA || !okB || seen[q] {
				continue
			}
			seen[q] = true
			ga, gb = append(ga, x), append(gb, y)
			pa, pb = append(pa, boolInt(x >= 2)), append(pb, boolInt(y >= 2))
		}
		if len(ga) == 0 {
			continue
		}
		ag := Agreement{Run: r.name, ReviewerA: revs[0], ReviewerB: revs[1], Items: len(ga), Others: len(revs) - 2}
		ag.Kappa, ag.Raw = kappa(ga, gb)
		ag.PassKappa, ag.PassRaw = kappa(pa, pb)
		out = append(out, ag)
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
