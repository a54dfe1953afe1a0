package itemscore

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"eval752/app/dataset"
	"eval752/app/model"
	"eval752/app/resolve"
	"eval752/app/textnorm"
)

// DefaultCrowdingK is the depth DUPLICATE_CROWDING looks at when the run's
// config.yaml has no context_top_n.
const DefaultCrowdingK = 5

var (
	timeoutRE   = regexp.MustCompile(`(?i)time[ _-]?out|timed out|deadline exceeded|\b504\b`)
	rateLimitRE = regexp.MustCompile(`(?i)rate[ _-]?limit|too many requests|throttl|\b429\b`)
)

// attribute derives seed 003 §9 codes for one scored item (rules in
// docs/metrics.md), in taxonomy order. A missing result gets none: it has
// no output to attribute.
func (sc *scorer) attribute(u *unitSpec, o *output, r *runOut, it *ItemScore) []string {
	if o == nil {
		return nil
	}
	has := map[string]bool{}
	// system errors, from the result's error text
	if o.errText != "" {
		if timeoutRE.MatchString(o.errText) {
			has["SYSTEM_TIMEOUT"] = true
		}
		if rateLimitRE.MatchString(o.errText) {
			has["SYSTEM_RATE_LIMIT"] = true
		}
	}
	// refusal: an answerable item refused / an unanswerable one answered
	if it.Values.At("refusal.fp") == 1 {
		has["REFUSAL_OVER"] = true
	}
	if it.Values.At("refusal.fn") == 1 {
		has["REFUSAL_UNDER"] = true
	}
	if v, ok := it.Values.Get("answer.numeric"); ok && v == 0 && !abstained(o, sc.refusals) {
		has["NUMERIC_UNIT"] = true
	}
	if u.rag != nil && u.Answerable {
		sc.attributeRetrieval(u, o, r, has)
	}
	var out []string
	for _, c := range model.ErrorTaxonomy {
		if has[c.Code] {
			out = append(out, c.Code)
		}
	}
	return out
}

// attributeRetrieval adds the ranking, chunking and citation codes of an
// answerable seed-003 question.
func (sc *scorer) attributeRetrieval(u *unitSpec, o *output, r *runOut, has map[string]bool) {
	g := sc.viewRun(u, r)
	if g == nil {
		return
	}
	for _, row := range g.rows {
		if strings.Contains(row.Problem, resolve.ProblemCrosses) {
			has["CHUNK_BOUNDARY"] = true
		}
	}
	relevant := func(id string) bool {
		_, grade, _ := g.grade(id)
		return grade >= 2
	}
	anyRel := func(ids []string) bool { return slices.ContainsFunc(ids, relevant) }
	final := make([]string, 0, len(o.retrieved))
	for _, x := range o.retrieved {
		final = append(final, x.id)
	}
	// citations: a cited chunk without a grade ≥ 2 judgment for the question
	for _, c := range o.x().citations {
		if c.ChunkID != "" && !relevant(c.ChunkID) {
			has["CITATION_MISMATCH"] = true
		}
	}
	if !g.hasRetrieval || o.retrieved == nil || !slices.ContainsFunc(g.rel, func(x int) bool { return x >= 2 }) {
		return // nothing to find (no relevant chunk judged), or no ranking
	}
	first := final
	if o.x().reranked {
		first = o.x().first
	}
	cut := r.contextTop
	switch {
	case !anyRel(first):
		has["RETRIEVAL_MISS"] = true
	case o.x().reranked && !anyRel(final):
		has["RERANK_TRUNCATION"] = true
	case o.x().reranked && cut > 0 && !anyRel(final[:min(cut, len(final))]):
		has["RERANK_WRONG_ORDER"] = true
	}
	// duplicate crowding: at least half of the top k slots hold a chunk
	// whose text repeats an earlier one's
	k := cut
	if k <= 0 {
		k = DefaultCrowdingK
	}
	top := final[:min(k, len(final))]
	if len(top) >= 2 {
		seen := map[string]bool{}
		dups := 0
		for _, id := range top {
			ch, ok := sc.chunks.Lookup(id)
			if !ok || ch.Text == "" {
				continue
			}
			key := normText(ch.Text)
			if seen[key] {
				dups++
			}
			seen[key] = true
		}
		if 2*dups >= len(top) {
			has["DUPLICATE_CROWDING"] = true
		}
	}
}

// normText is a chunk's text for duplicate detection: width-folded, lower
// case, without whitespace and punctuation.
func normText(s string) string {
	var b strings.Builder
	for _, r := range textnorm.FoldWidthString(s) {
		if unicode.IsSpace(r) || unicode.IsPunct(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// contextTopOf reads context_top_n from a run's config (0: absent).
func contextTopOf(cfg map[string]string) int {
	n, err := strconv.Atoi(strings.TrimSpace(cfg["context_top_n"]))
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// reviewedErrors maps run → unit → the codes of the runs' errors.jsonl
// lines: a line's run is its run_id, else the run whose outputs were read
// from the file's folder; lines whose run, qid or code is unknown are left
// out (validation reports the qid and the code).
func reviewedErrors(ds *dataset.Dataset, runs []*runOut, byID map[string]int) map[string]map[int][]model.RAGError {
	out := map[string]map[int][]model.RAGError{}
	for rec := range typedRecs(ds.Errors) {
		e := rec.V
		ui, ok := byID[e.QID]
		if !ok || !model.KnownErrorCode(e.Code) {
			continue
		}
		name := e.RunID
		if name == "" {
			d := dirOf(ds.Path(rec.Loc))
			for _, r := range runs {
				if slices.Contains(r.dirs, d) && !strings.HasSuffix(r.name, ".retrieve") {
					name = r.name
					break
				}
			}
		}
		if name == "" {
			continue
		}
		if out[name] == nil {
			out[name] = map[int][]model.RAGError{}
		}
		if !slices.ContainsFunc(out[name][ui], func(x model.RAGError) bool { return x.Code == e.Code }) {
			e.RunID = name
			out[name][ui] = append(out[name][ui], e)
		}
	}
	return out
}

// mergeCodes is the union of derived and reviewed codes in taxonomy order.
func mergeCodes(a, b []string) []string {
	var out []string
	for _, c := range model.ErrorTaxonomy {
		if slices.Contains(a, c.Code) || slices.Contains(b, c.Code) {
			out = append(out, c.Code)
		}
	}
	return out
}

// derivedRules say why eval752 attributes each derived code and what to
// look at (the root_cause and suggested_fix of the errors.jsonl it writes;
// docs/metrics.md has the same rules).
var derivedRules = map[string][2]string{
	"RETRIEVAL_MISS":     {"no chunk of grade ≥ 2 in the first-stage list (retrieved_chunk_ids) at the run's depth", "check the query, the embedding and the first-stage depth; a reranker cannot recover it"},
	"RERANK_TRUNCATION":  {"a grade ≥ 2 chunk is in the first-stage list but not in the reranked list", "raise rerank_top_n or the candidates passed to the reranker"},
	"RERANK_WRONG_ORDER": {"grade ≥ 2 chunks are in the reranked list, none within the context cut (context_top_n)", "check the reranker's order, or raise context_top_n"},
	"CHUNK_BOUNDARY":     {"a required evidence anchor spans chunks (the resolution table marks it: crosses atom boundary)", "re-chunk so the evidence sits in one chunk, or resolve it to all its chunks"},
	"DUPLICATE_CROWDING": {"at least half of the top k slots (k = context_top_n, else 5) hold a chunk whose text repeats an earlier one's", "de-duplicate chunks (seed 003 §3.3) or diversify the ranking"},
	"REFUSAL_OVER":       {"an answerable question was refused", "check the refusal threshold and the evidence passed to the generator"},
	"REFUSAL_UNDER":      {"a question that should be refused (answerable = false) was answered", "check the refusal threshold; the answer is unsupported"},
	"NUMERIC_UNIT":       {"the numeric answer is outside the tolerance after unit conversion (answer.numeric = 0)", "check the number and the unit against the evidence"},
	"CITATION_MISMATCH":  {"a citation names a chunk without a grade ≥ 2 judgment for the question", "map citation labels to the chunks that support the claim"},
	"SYSTEM_TIMEOUT":     {"the result's error reports a timeout", "retry with a longer timeout; the item was not really answered"},
	"SYSTEM_RATE_LIMIT":  {"the result's error reports a rate limit (429, too many requests)", "retry with backoff (seed 003 §5.3: 429 has a bounded backoff)"},
}

// ErrorRecords lists every code of every run's items as seed 003 §9's
// error record: derived codes with eval752's rule as root cause and
// severity "unrated" (eval752 attributes, a reviewer rates), reviewed ones
// as the run's errors.jsonl gives them (source "reviewed"), their empty
// fields filled in from the result. Lists are the result's as written. Runs in set order, units in unit order, codes in taxonomy
// order, derived before reviewed.
func ErrorRecords(set *Set) []model.RAGError {
	var out []model.RAGError
	for _, rs := range set.Runs {
		for i, it := range rs.Items {
			if it.OutOfScope || (len(it.Errors) == 0 && len(it.Reviewed) == 0) {
				continue
			}
			u := set.Units[i]
			var tr ItemTrace
			if it.Trace != nil {
				tr = *it.Trace
			}
			base := model.RAGError{QID: u.ID, RunID: rs.Run, RetrievedChunkIDs: tr.FirstStage, RerankedChunkIDs: tr.Reranked, Citations: tr.Citations}
			if rs.ConfigPath != "" {
				base.Config = rs.ConfigPath
			}
			if u.Reference != "" {
				base.Expected = u.Reference
			} else if !u.Answerable {
				base.Expected = "a refusal (the question is not answerable)"
			}
			if it.Detail.Response != "" {
				resp := it.Detail.Response
				base.Actual, base.Answer = resp, &resp
			}
			for _, c := range it.Errors {
				e := base
				e.Code, e.Source = c, "derived"
				e.RootCause, e.SuggestedFix = derivedRules[c][0], derivedRules[c][1]
				e.Severity = "unrated"
				out = append(out, e)
			}
			for _, r := range tr.ReviewedRecords {
				out = append(out, fillReviewed(r, base))
			}
		}
	}
	return out
}

// fillReviewed is a reviewer's errors.jsonl line as given (source
// "reviewed"), its empty fields filled in from the run's result (base).
func fillReviewed(r, base model.RAGError) model.RAGError {
	r.Source = "reviewed"
	if r.RunID == "" {
		r.RunID = base.RunID
	}
	if r.Config == nil {
		r.Config = base.Config
	}
	if r.Expected == nil {
		r.Expected = base.Expected
	}
	if r.Actual == nil {
		r.Actual = base.Actual
	}
	if r.RetrievedChunkIDs == nil {
		r.RetrievedChunkIDs = base.RetrievedChunkIDs
	}
	if r.RerankedChunkIDs == nil {
		r.RerankedChunkIDs = base.RerankedChunkIDs
	}
	if r.Answer == nil {
		r.Answer = base.Answer
	}
	if r.Citations == nil {
		r.Citations = base.Citations
	}
	return r
}
