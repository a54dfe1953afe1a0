package audit

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// Categories are seed 002's four question types, in report order.
var Categories = []string{model.CategoryDirect, model.CategoryConditional, model.CategoryCross, model.CategoryRefuse}

func knownCategory(c string) bool {
	for _, k := range Categories {
		if c == k {
			return true
		}
	}
	return false
}

// ckey is seed 002's compound provenance key.
type ckey struct{ doc, clause string }

// keyOf is the key of (doc, clause) as written: a clause number is matched
// without its white space ("第 十二 条" is 第十二条), the doc id trimmed.
func keyOf(doc, clause string) ckey {
	return ckey{strings.TrimSpace(doc), clauseNo(clause)}
}

// clauseNo drops every white-space character of a clause number.
func clauseNo(s string) string { return strings.Join(strings.Fields(s), "") }

func (k ckey) String() string { return k.doc + " " + k.clause }

// body is one distinct text of a clause number: records whose compacted
// texts are equal (the same clause typeset twice) share one body.
type body struct {
	text string
	key  string // compact(text)
	locs []dataset.Loc
}

// clauseIndex maps (doc, clause) to its distinct bodies in load order.
type clauseIndex struct {
	present bool // a clause index was given (even if empty)
	bodies  map[ckey][]*body
	docs    map[string]bool
}

func buildIndex(ds *dataset.Dataset) *clauseIndex {
	ix := &clauseIndex{bodies: map[ckey][]*body{}, docs: map[string]bool{}}
	ix.present = len(ds.Clauses) > 0 || (ds.Has != nil && ds.Has[model.FormatClause])
	for _, r := range ds.Clauses {
		if !r.Typed || r.V.Doc == "" {
			continue
		}
		ix.docs[r.V.Doc] = true
		if r.V.Clause == "" {
			continue
		}
		k := keyOf(r.V.Doc, r.V.Clause)
		ck := compact(r.V.Text)
		var hit *body
		for _, b := range ix.bodies[k] {
			if b.key == ck {
				hit = b
				break
			}
		}
		if hit == nil {
			hit = &body{text: r.V.Text, key: ck}
			ix.bodies[k] = append(ix.bodies[k], hit)
		}
		hit.locs = append(hit.locs, r.Loc)
	}
	return ix
}

// gateRun carries one Rules / Draft evaluation.
type gateRun struct {
	ds  *dataset.Dataset
	opt Options
	ix  *clauseIndex
	out finding.List
	// schemaAt holds "path\x00line\x00pointer" of the reader's schema
	// findings, built on first use.
	schemaAt map[string]bool
}

// add records f unless the reader's schema check already reported the same
// value (same file, line and non-empty JSON pointer, e.g. schema.enum at
// /category): one defect, one finding.
func (g *gateRun) add(f finding.Finding) {
	if f.Pointer != "" {
		if g.schemaAt == nil {
			g.schemaAt = map[string]bool{}
			for _, s := range g.ds.Findings {
				if s.Pointer != "" && strings.HasPrefix(s.Code, "schema.") {
					g.schemaAt[s.Path+"\x00"+strconv.Itoa(s.Line)+"\x00"+s.Pointer] = true
				}
			}
		}
		if g.schemaAt[f.Path+"\x00"+strconv.Itoa(f.Line)+"\x00"+f.Pointer] {
			return
		}
	}
	g.out = append(g.out, f)
}

// keyAbsent reports whether a record's raw JSON object lacks key; a missing
// required key is schema.required's finding, so the rules stay silent on it.
// A record without a raw object (built in code) has every key.
func keyAbsent(raw any, key string) bool {
	m, ok := raw.(map[string]any)
	if !ok {
		return false
	}
	_, has := m[key]
	return !has
}

// setPath is where set-level findings point: the first v2 question file.
func setPath(ds *dataset.Dataset) string {
	for _, r := range ds.V2 {
		return ds.Path(r.Loc)
	}
	return ""
}

// Rules runs seed 002's three gates on the dataset's v2 questions and clause
// index and returns their findings only (sorted, de-duplicated). A dataset
// without v2 questions gives none.
func Rules(ds *dataset.Dataset, opt Options) finding.List {
	if ds == nil || len(ds.V2) == 0 {
		return nil
	}
	g := &gateRun{ds: ds, opt: opt.withDefaults(), ix: buildIndex(ds)}
	qs := typedV2(ds)
	g.indexNotice(qs)
	for _, q := range qs {
		g.question(q)
	}
	g.quota(qs)
	g.reuse(qs)
	g.splitCounts(qs)
	g.concentration(qs)
	return g.out.Normalize()
}

// Draft is seed 002's `validate.py --draft F --category C`: only questions of
// category are checked (per-question rules, clause reuse within the
// category, and — when opt.DraftTarget > 0 — the category's count). Set-level
// rules (quotas across categories, splits, concentration) wait for the
// whole set. An unknown category gives a single v2.category finding.
func Draft(ds *dataset.Dataset, category string, opt Options) finding.List {
	if ds == nil || len(ds.V2) == 0 {
		return nil
	}
	g := &gateRun{ds: ds, opt: opt.withDefaults(), ix: buildIndex(ds)}
	if !knownCategory(category) {
		g.add(ruleCategory.At(setPath(ds), 0, "", "draft category %q is not one of %s", category, strings.Join(Categories, ", ")))
		return g.out.Normalize()
	}
	var qs []dataset.Rec[model.V2Question]
	skipped := 0
	for _, q := range typedV2(ds) {
		if q.V.Category == category {
			qs = append(qs, q)
		} else {
			skipped++
		}
	}
	if skipped > 0 {
		g.add(ruleDraftSkipped.At(setPath(ds), 0, "", "%d question(s) of other categories than %s were not checked", skipped, category))
	}
	g.indexNotice(qs)
	for _, q := range qs {
		g.question(q)
	}
	if t := g.opt.DraftTarget; t > 0 && len(qs) != t {
		g.add(ruleQuota.At(setPath(ds), 0, "", "draft has %d %s question(s), target %d", len(qs), category, t))
	}
	g.reuse(qs)
	return g.out.Normalize()
}

func typedV2(ds *dataset.Dataset) []dataset.Rec[model.V2Question] {
	out := make([]dataset.Rec[model.V2Question], 0, len(ds.V2))
	for _, r := range ds.V2 {
		if r.Typed {
			out = append(out, r)
		}
	}
	return out
}

func (g *gateRun) indexNotice(qs []dataset.Rec[model.V2Question]) {
	if g.ix.present {
		return
	}
	for _, q := range qs {
		if len(q.V.Provenance) > 0 {
			g.add(ruleIndexMissing.At(setPath(g.ds), 0, "", "no clause index loaded: provenance, verbatim answers and 4-gram coverage of %d question(s) were not checked", countWithProvenance(qs)))
			return
		}
	}
}

func countWithProvenance(qs []dataset.Rec[model.V2Question]) int {
	n := 0
	for _, q := range qs {
		if len(q.V.Provenance) > 0 {
			n++
		}
	}
	return n
}

// isRefusal reports whether an answer is one of the refusal phrases
// (compared without whitespace, punctuation or width differences).
func isRefusal(answer string, phrases []string) bool {
	a := string(bare(answer, false))
	for _, p := range phrases {
		if a == string(bare(p, false)) {
			return true
		}
	}
	return false
}

// question applies the per-question rules.
func (g *gateRun) question(r dataset.Rec[model.V2Question]) {
	q, path, line := r.V, g.ds.Path(r.Loc), int(r.Line)
	absent := func(k string) bool { return keyAbsent(r.Raw, k) }
	if strings.TrimSpace(q.Question) == "" && !absent("question") {
		g.add(ruleRequired.At(path, line, "/question", "question %s has no question text", q.ID))
	}
	switch {
	case q.Category == "" && absent("category"):
	case q.Category == "":
		g.add(ruleRequired.At(path, line, "/category", "question %s has no category", q.ID))
	case !knownCategory(q.Category):
		g.add(ruleCategory.At(path, line, "/category", "question %s: category %q is not one of %s", q.ID, q.Category, strings.Join(Categories, ", ")))
	}
	if q.Split != "dev" && q.Split != "test" && !absent("split") {
		g.add(ruleRequired.At(path, line, "/split", "question %s: split %q is not dev or test", q.ID, q.Split))
	}
	if q.Origin != "v1" && q.Origin != "v2" && !absent("origin") {
		g.add(ruleRequired.At(path, line, "/origin", "question %s: origin %q is not v1 or v2", q.ID, q.Origin))
	}
	if q.Origin == "v1" && q.Split == "test" {
		g.add(ruleV1InTest.At(path, line, "/split", "question %s is kept from v1 but sits in test", q.ID))
	}
	if q.Category == model.CategoryRefuse {
		if q.Answer != nil && !isRefusal(*q.Answer, g.opt.RefusalPhrases) {
			g.add(ruleRefuseAnswer.At(path, line, "/answer", "refuse question %s answers 「%s」, not null or the refusal phrase", q.ID, clip(*q.Answer, 40)))
		}
		if len(q.Provenance) > 0 {
			g.add(ruleRefuseProvenance.At(path, line, "/provenance", "refuse question %s cites %d provenance(s)", q.ID, len(q.Provenance)))
		}
		return
	}
	if !knownCategory(q.Category) {
		return
	}
	answer := ""
	if q.Answer != nil {
		answer = *q.Answer
	}
	switch {
	case strings.TrimSpace(answer) == "" && absent("answer"):
	case strings.TrimSpace(answer) == "":
		g.add(ruleRequired.At(path, line, "/answer", "%s question %s has no answer", q.Category, q.ID))
	case isRefusal(answer, g.opt.RefusalPhrases):
		g.add(ruleRequired.At(path, line, "/answer", "%s question %s answers with the refusal phrase; only refuse questions may", q.Category, q.ID))
	}
	if len(q.Provenance) == 0 && !absent("provenance") {
		g.add(ruleRequired.At(path, line, "/provenance", "%s question %s cites no (doc, clause) provenance", q.Category, q.ID))
	}
	distinct := map[ckey]bool{}
	for i, p := range q.Provenance {
		if p.Doc == "" {
			g.add(ruleRequired.At(path, line, jsonl.Pointer("provenance", i, "doc"), "question %s: provenance %d has no doc", q.ID, i))
		}
		if p.Clause == "" {
			g.add(ruleRequired.At(path, line, jsonl.Pointer("provenance", i, "clause"), "question %s: provenance %d has no clause", q.ID, i))
		}
		distinct[keyOf(p.Doc, p.Clause)] = true
	}
	if q.Category == model.CategoryCross {
		if len(distinct) < 2 {
			g.add(ruleCrossProvenance.At(path, line, "/provenance", "cross question %s cites %d distinct provenance(s), needs at least 2", q.ID, len(distinct)))
		}
		if !q.Joint {
			g.add(ruleCrossJoint.At(path, line, "/joint", "cross question %s is not joint", q.ID))
		}
	}
	if !g.ix.present || len(q.Provenance) == 0 {
		return
	}
	// Gate 2: every provenance resolves.
	resolved := make([][]*body, len(q.Provenance))
	all := true
	for i, p := range q.Provenance {
		if p.Doc == "" || p.Clause == "" {
			all = false
			continue
		}
		bs := g.ix.bodies[keyOf(p.Doc, p.Clause)]
		if len(bs) == 0 {
			all = false
			if g.ix.docs[p.Doc] {
				g.add(ruleProvenance.At(path, line, jsonl.Pointer("provenance", i), "question %s cites %s of %s, which is not in the clause index", q.ID, p.Clause, p.Doc))
			} else {
				g.add(ruleProvenance.At(path, line, jsonl.Pointer("provenance", i), "question %s cites document %s, which is not in the clause index", q.ID, p.Doc))
			}
			continue
		}
		resolved[i] = bs
	}
	if !all || strings.TrimSpace(answer) == "" || isRefusal(answer, g.opt.RefusalPhrases) {
		return // a missing clause or a missing answer already explains any text mismatch
	}
	if q.Origin == "v1" {
		g.coverage(r, answer, resolved)
		return
	}
	g.verbatim(r, answer, resolved)
}

// verbatim is gate 3's text check for new answers: each 「；」 piece in the
// union of cited bodies; each cross provenance contributes a piece; a
// duplicated clause number is resolved by the answer to one body.
func (g *gateRun) verbatim(r dataset.Rec[model.V2Question], answer string, resolved [][]*body) {
	q, path, line := r.V, g.ds.Path(r.Loc), int(r.Line)
	pieces, show := splitAnswer(answer)
	for k, piece := range pieces {
		found := false
		for _, bs := range resolved {
			for _, b := range bs {
				if strings.Contains(b.key, piece) {
					found = true
				}
			}
		}
		if !found {
			g.add(ruleVerbatim.At(path, line, "/answer", "question %s: sentence %d of %d 「%s」 is not verbatim in the cited clause text (%s)", q.ID, k+1, len(pieces), clip(show[k], 40), provList(q.Provenance)))
		}
	}
	for i, bs := range resolved {
		fit := 0
		var lines []string
		for _, b := range bs {
			for _, piece := range pieces {
				if strings.Contains(b.key, piece) {
					fit++
					lines = append(lines, locString(g.ds, b.locs[0]))
					break
				}
			}
		}
		if q.Category == model.CategoryCross && len(distinctKeys(q.Provenance)) >= 2 && fit == 0 {
			p := q.Provenance[i]
			g.add(ruleContribution.At(path, line, jsonl.Pointer("provenance", i), "cross question %s: no sentence of the answer comes from %s of %s", q.ID, p.Clause, p.Doc))
		}
		if len(bs) > 1 && fit > 1 {
			p := q.Provenance[i]
			g.add(ruleAmbiguous.At(path, line, jsonl.Pointer("provenance", i), "question %s: %s of %s has %d distinct bodies and the answer's sentences are found in %d of them (%s): it must fall in one", q.ID, p.Clause, p.Doc, len(bs), fit, strings.Join(lines, ", ")))
		}
	}
}

// coverage is the v1 paraphrase check (seed 002: 4-gram coverage < 45 %).
func (g *gateRun) coverage(r dataset.Rec[model.V2Question], answer string, resolved [][]*body) {
	var texts []string
	for _, bs := range resolved {
		for _, b := range bs {
			texts = append(texts, b.text)
		}
	}
	c := ngramCoverage(answer, texts, g.opt.CoverageN)
	if g.opt.MinCoverage > 0 && c < g.opt.MinCoverage {
		g.add(ruleCoverage.At(g.ds.Path(r.Loc), int(r.Line), "/answer", "v1 question %s: %d-gram coverage of the answer against %s is %.1f %% (< %.0f %%)", r.V.ID, g.opt.CoverageN, provList(r.V.Provenance), 100*c, 100*g.opt.MinCoverage))
	}
}

func distinctKeys(ps []model.V2Provenance) map[ckey]bool {
	m := map[ckey]bool{}
	for _, p := range ps {
		m[keyOf(p.Doc, p.Clause)] = true
	}
	return m
}

func provList(ps []model.V2Provenance) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Doc + " " + p.Clause
	}
	return strings.Join(s, "; ")
}

func locString(ds *dataset.Dataset, l dataset.Loc) string { return ds.Where(l).String() }

// quota compares each category's share with its target.
func (g *gateRun) quota(qs []dataset.Rec[model.V2Question]) {
	if g.opt.QuotaTolerance < 0 {
		return
	}
	n := map[string]int{}
	total := 0
	for _, q := range qs {
		if knownCategory(q.V.Category) {
			n[q.V.Category]++
			total++
		}
	}
	if total == 0 {
		return
	}
	for _, c := range slices.Sorted(maps.Keys(g.opt.Targets)) {
		t := g.opt.Targets[c]
		share := float64(n[c]) / float64(total)
		if d := share - t; d > g.opt.QuotaTolerance+1e-12 || -d > g.opt.QuotaTolerance+1e-12 {
			g.add(ruleQuota.At(setPath(g.ds), 0, "", "%s: %d of %d questions (%.1f %%), target %.1f %% ± %.1f pp", c, n[c], total, 100*share, 100*t, 100*g.opt.QuotaTolerance))
		}
	}
}

// reuse counts new questions per (category, clause).
func (g *gateRun) reuse(qs []dataset.Rec[model.V2Question]) {
	type rk struct {
		cat string
		k   ckey
	}
	users := map[rk][]dataset.Rec[model.V2Question]{}
	var order []rk
	for _, q := range qs {
		if q.V.Origin == "v1" || q.V.Category == model.CategoryRefuse || !knownCategory(q.V.Category) {
			continue
		}
		for k := range distinctKeys(q.V.Provenance) {
			if k.doc == "" || k.clause == "" {
				continue
			}
			key := rk{q.V.Category, k}
			if _, ok := users[key]; !ok {
				order = append(order, key)
			}
			users[key] = append(users[key], q)
		}
	}
	for _, key := range order {
		us := users[key]
		if len(us) <= g.opt.MaxClauseReuse || g.opt.MaxClauseReuse < 0 {
			continue
		}
		ids := make([]string, len(us))
		for i, u := range us {
			ids[i] = u.V.ID
		}
		at := us[g.opt.MaxClauseReuse]
		g.add(ruleReuse.At(g.ds.Path(at.Loc), int(at.Line), "/provenance", "%s of %s is cited by %d new %s questions (%s), more than %d", key.k.clause, key.k.doc, len(us), key.cat, strings.Join(ids, ", "), g.opt.MaxClauseReuse))
	}
}

// splitCounts reports counts per split, category and origin (one finding).
func (g *gateRun) splitCounts(qs []dataset.Rec[model.V2Question]) {
	type cnt struct {
		n      int
		cat    map[string]int
		origin map[string]int
	}
	per := map[string]*cnt{}
	for _, q := range qs {
		c := per[q.V.Split]
		if c == nil {
			c = &cnt{cat: map[string]int{}, origin: map[string]int{}}
			per[q.V.Split] = c
		}
		c.n++
		c.cat[q.V.Category]++
		c.origin[q.V.Origin]++
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(per)) {
		c := per[s]
		var cs []string
		for _, k := range slices.Sorted(maps.Keys(c.cat)) {
			cs = append(cs, fmt.Sprintf("%s %d", nonEmpty(k), c.cat[k]))
		}
		var os []string
		for _, k := range slices.Sorted(maps.Keys(c.origin)) {
			os = append(os, fmt.Sprintf("%s %d", nonEmpty(k), c.origin[k]))
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s; %s)", nonEmpty(s), c.n, strings.Join(cs, ", "), strings.Join(os, ", ")))
	}
	g.add(ruleSplitCounts.At(setPath(g.ds), 0, "", "%d questions: %s", len(qs), strings.Join(parts, "; ")))
}

func nonEmpty(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// citationStrata are the groups whose document concentration is judged:
// the whole set and its v1 / new parts (seed 002 reports v1 79 %, v2 55.3 %).
var citationStrata = []struct{ name, origin string }{{"all questions", ""}, {"v1 questions", "v1"}, {"new (v2) questions", "v2"}}

// docShares counts citations (one per provenance entry) per document.
func docShares(qs []dataset.Rec[model.V2Question], keep func(model.V2Question) bool) (map[string]int, int) {
	per := map[string]int{}
	total := 0
	for _, q := range qs {
		if !keep(q.V) {
			continue
		}
		for _, p := range q.V.Provenance {
			if p.Doc == "" {
				continue
			}
			per[p.Doc]++
			total++
		}
	}
	return per, total
}

// topDoc returns the document with most citations (ties: byte order).
func topDoc(per map[string]int) (string, int) {
	best, n := "", -1
	for _, d := range slices.Sorted(maps.Keys(per)) {
		if per[d] > n {
			best, n = d, per[d]
		}
	}
	return best, n
}

func (g *gateRun) concentration(qs []dataset.Rec[model.V2Question]) {
	if g.opt.ConcentrationBound < 0 {
		return
	}
	for _, s := range citationStrata {
		per, total := docShares(qs, func(q model.V2Question) bool { return s.origin == "" || q.Origin == s.origin })
		if total < g.opt.ConcentrationMin || total == 0 {
			continue
		}
		d, n := topDoc(per)
		share := float64(n) / float64(total)
		if share > g.opt.ConcentrationBound {
			g.add(ruleConcentration.At(setPath(g.ds), 0, "", "%s: %d of %d citations (%.1f %%) come from %s, above %.0f %%", s.name, n, total, 100*share, d, 100*g.opt.ConcentrationBound))
		}
	}
}
