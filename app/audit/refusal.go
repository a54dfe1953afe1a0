package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// Refusal audit (seed 002 "拒答题要审计"): every refuse / unanswerable
// question is used as a query against the corpus; its most similar passage
// and that similarity are reported, and questions at or above the threshold
// are flagged for a human to read the passage. The similarity distributions
// of answerable and refuse questions are reported side by side, as in the
// seed's table: they overlap, so the threshold narrows the review, it never
// decides.

var (
	ruleRefusalSimilar = finding.Register(finding.Rule{
		Code: "audit.refusal-similar", Severity: finding.Warning, Family: "audit",
		Description: "A refuse / unanswerable question's most similar corpus passage (the share of the question's character 2- and 3-grams it holds, weighted by idf², scale [0, 1]) is below the review threshold.",
		Source:      "seed 002 拒答题要审计 (≥0.65 的题标出来人工看; R12 注塑工艺参数)",
		Hint:        "Read the passage: if it answers the question, make it an answerable question (or retire it); if not, note why and keep it.",
	})
	ruleRefusalNoCorpus = finding.Register(finding.Rule{
		Code: "audit.refusal-no-corpus", Severity: finding.Info, Family: "audit",
		Description: "Refuse / unanswerable questions exist but no corpus text (clauses, chunks, document texts, atom texts) was loaded, so the refusal audit could not run.",
		Source:      "seed 002 拒答题要审计",
		Hint:        "Load the clause index, chunks.jsonl, documents.jsonl with text, or an atom table with text.",
	})
)

// passage is one retrievable unit of corpus text.
type passage struct {
	ID   string
	Doc  string
	Loc  dataset.Loc
	Text string
}

// corpusPassages collects the retrievable text: clause texts, searchable
// seed-003 chunks, documents with text but no chunks (cut into paragraphs),
// and atoms with text. Order is load order, so ties break the same way on
// every run.
func corpusPassages(ds *dataset.Dataset) []passage {
	var out []passage
	for _, r := range ds.Clauses {
		if !r.Typed || strings.TrimSpace(r.V.Text) == "" {
			continue
		}
		id := r.V.Doc
		if r.V.Clause != "" {
			id += " " + r.V.Clause
		}
		out = append(out, passage{ID: id, Doc: r.V.Doc, Loc: r.Loc, Text: r.V.Text})
	}
	chunked := map[string]bool{}
	for _, r := range ds.Chunks {
		if !r.Typed || strings.TrimSpace(r.V.Text) == "" || (r.V.Searchable != nil && !*r.V.Searchable) {
			continue
		}
		chunked[r.V.DocID] = true
		out = append(out, passage{ID: r.V.ChunkID, Doc: r.V.DocID, Loc: r.Loc, Text: r.V.Text})
	}
	for _, r := range ds.Documents {
		if !r.Typed || r.V.Text == nil || chunked[r.V.DocID] || (r.V.Searchable != nil && !*r.V.Searchable) {
			continue
		}
		for k, p := range paragraphs(*r.V.Text, 200) {
			out = append(out, passage{ID: fmt.Sprintf("%s ¶%d", r.V.DocID, k+1), Doc: r.V.DocID, Loc: r.Loc, Text: p})
		}
	}
	for _, r := range ds.Atoms {
		if !r.Typed || strings.TrimSpace(r.V.Text) == "" {
			continue
		}
		out = append(out, passage{ID: r.V.AtomID, Doc: r.V.SourceID, Loc: r.Loc, Text: r.V.Text})
	}
	return out
}

// paragraphs cuts a document text at line breaks and packs consecutive
// paragraphs into passages of at most max characters (a longer paragraph
// stays whole), the size of a clause or a chunk.
func paragraphs(text string, max int) []string {
	var out []string
	var cur strings.Builder
	n := 0
	for _, p := range strings.Split(text, "\n") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		l := len([]rune(p))
		if n > 0 && n+l > max {
			out = append(out, cur.String())
			cur.Reset()
			n = 0
		}
		if n > 0 {
			cur.WriteByte('\n')
		}
		cur.WriteString(p)
		n += l
	}
	if n > 0 {
		out = append(out, cur.String())
	}
	return out
}

// query is one question of any format with its answerability.
type query struct {
	ID       string
	Format   model.Format
	Loc      dataset.Loc
	Pointer  string // where the question text is
	Text     string
	Split    string
	Refuse   bool
	Answer   string
	GoldDocs []string // seed-003 gold evidence documents (a slice: a map per question cost ≈ 1 KiB)
	Family   string   // seed-003 duplicate_family_id
}

// queries lists every question of the v2, b-2 and seed-003 sets.
func queries(ds *dataset.Dataset) []query {
	var out []query
	for _, r := range ds.V2 {
		if !r.Typed || !knownCategory(r.V.Category) {
			continue
		}
		q := query{ID: r.V.ID, Format: model.FormatV2Question, Loc: r.Loc, Pointer: "/question", Text: r.V.Question, Split: r.V.Split, Refuse: r.V.Category == model.CategoryRefuse}
		if r.V.Answer != nil {
			q.Answer = *r.V.Answer
		}
		out = append(out, q)
	}
	for _, r := range ds.B2 {
		if !r.Typed {
			continue
		}
		out = append(out, query{ID: r.V.QueryID, Format: model.FormatB2, Loc: r.Loc, Pointer: "/question", Text: r.V.Question, Split: r.V.Split, Refuse: r.V.Unanswerable})
	}
	for _, r := range ds.RAG {
		if !r.Typed {
			continue
		}
		q := query{ID: r.V.QID, Format: model.FormatRAGQuestion, Loc: r.Loc, Pointer: "/query", Text: r.V.Query, Split: r.V.Split, Refuse: !r.V.Answerable, Family: r.V.DuplicateFamilyID}
		if r.V.ReferenceAnswer != nil {
			q.Answer = *r.V.ReferenceAnswer
		}
		for _, g := range r.V.GoldEvidenceGroups {
			if !slices.Contains(q.GoldDocs, g.DocID) {
				q.GoldDocs = append(q.GoldDocs, g.DocID)
			}
		}
		out = append(out, q)
	}
	return out
}

// refusalRow is one audited question.
type refusalRow struct {
	Q       query
	Passage *passage // nil: no n-gram in common with the corpus
	Sim     float64
	Flagged bool

	// the review queue (queue.go)
	Signals [4]float64     // S_s(q): each signal's best passage score, queueSignals order
	Fused   float64        // Σ_s 1/(60 + rank_s(q))
	Top     []passageScore // the best passages by fusion, at most queueShown
	Verdict *dataset.Rec[model.Verdict]
}

type refusalResult struct {
	Passages   int
	Refuse     []refusalRow // ranked: similarity descending, then location
	Queue      []refusalRow // the same questions ranked by Fused, then location
	Answerable []float64    // top-1 similarities of answerable questions
	NRefuse    int          // refuse / unanswerable questions, audited or not
	Candidates []passage    // the passages, for the queue's ids and texts
}

func refusalAudit(ds *dataset.Dataset, qs []query, ps []passage, opt Options) (refusalResult, finding.List) {
	res := refusalResult{Passages: len(ps), Candidates: ps}
	var out finding.List
	nRefuse := 0
	for _, q := range qs {
		if q.Refuse {
			nRefuse++
		}
	}
	res.NRefuse = nRefuse
	verdicts, vf := latestVerdicts(ds, qs)
	out = append(out, vf...)
	if nRefuse == 0 {
		return res, out // nothing to audit: no index to build
	}
	if len(ps) == 0 {
		if nRefuse > 0 {
			out = append(out, ruleRefusalNoCorpus.At(ds.Path(qs[0].Loc), 0, "", "%d refuse / unanswerable question(s) could not be audited: no corpus text loaded", nRefuse))
		}
		return res, out
	}
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.Text
	}
	ix := newLexIndex(texts, opt.SimilarityGrams)
	wx := newWordIndex(texts)
	for _, q := range qs {
		bi, s := ix.best(q.Text)
		if !q.Refuse {
			res.Answerable = append(res.Answerable, s)
			continue
		}
		row := refusalRow{Q: q, Sim: s}
		sg := scoreQuestion(q.Text, ix, wx)
		for j, name := range queueSignals {
			row.Signals[j] = bestOf(sg.get(name))
		}
		row.Top = topPassages(sg, queueShown)
		if bi >= 0 {
			p := ps[bi]
			row.Passage = &p
		}
		row.Flagged = row.Passage != nil && s >= opt.RefusalThreshold
		if v, ok := verdicts[q.ID]; ok {
			row.Verdict = &v
			row.Flagged = row.Flagged && v.V.Verdict == model.VerdictUnsure
			if v.V.Verdict == model.VerdictAnswerable {
				out = append(out, ruleRefusalAnswerable.At(ds.Path(q.Loc), int(q.Loc.Line), q.Pointer,
					"refuse question %s was judged answerable by %s (%s)%s", q.ID, v.V.Reviewer, locString(ds, v.Loc), passageNote(v.V)))
			}
		}
		res.Refuse = append(res.Refuse, row)
	}
	sort.SliceStable(res.Refuse, func(i, j int) bool {
		a, b := res.Refuse[i], res.Refuse[j]
		if a.Sim != b.Sim {
			return a.Sim > b.Sim
		}
		if ds.Path(a.Q.Loc) != ds.Path(b.Q.Loc) {
			return ds.Path(a.Q.Loc) < ds.Path(b.Q.Loc)
		}
		return a.Q.Loc.Line < b.Q.Loc.Line
	})
	res.Queue = reviewQueue(res.Refuse)
	for _, r := range res.Refuse {
		if r.Flagged {
			unsure := ""
			if r.Verdict != nil {
				unsure = fmt.Sprintf(" (reviewed unsure by %s: needs a second reader)", r.Verdict.V.Reviewer)
			}
			out = append(out, ruleRefusalSimilar.At(ds.Path(r.Q.Loc), int(r.Q.Loc.Line), r.Q.Pointer,
				"refuse question %s: most similar passage %s (%s) covers %.3f of it ≥ %.2f: 「%s」%s",
				r.Q.ID, r.Passage.ID, locString(ds, r.Passage.Loc), r.Sim, opt.RefusalThreshold, clip(r.Passage.Text, 80), unsure))
		}
	}
	return res, out
}

func passageNote(v model.Verdict) string {
	s := ""
	if v.Passage != "" {
		s += ", passage " + v.Passage
	}
	if v.Note != "" {
		s += ": " + v.Note
	}
	return s
}

// reviewQueue orders rows by the fusion of their signals' ranks (queue.go);
// equal fused scores keep the similarity order of rows.
func reviewQueue(rows []refusalRow) []refusalRow {
	per := make([][]float64, len(queueSignals))
	for j := range queueSignals {
		per[j] = make([]float64, len(rows))
		for i, r := range rows {
			per[j][i] = r.Signals[j]
		}
	}
	out := append([]refusalRow(nil), rows...)
	for i, f := range rrf(per) {
		out[i].Fused = f
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Fused > out[j].Fused })
	return out
}

// quantile7 is the sample quantile of sorted x with linear interpolation
// between order statistics (Hyndman & Fan type 7, numpy's default):
//
//	h = (n − 1)·p,  Q(p) = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])
//
// x must be sorted ascending and non-empty; 0 ≤ p ≤ 1.
func quantile7(x []float64, p float64) float64 {
	h := float64(len(x)-1) * p
	lo := int(h)
	if lo >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
}
