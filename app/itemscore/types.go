// Package itemscore turns a loaded Dataset into per-item metric values for
// every run: it resolves gold regions and anchors to the run's atoms, grades
// the retrieved candidates, scores answers, and records what could not be
// resolved. Aggregation, confidence intervals and reports are done on top of
// a Set by package score.
package itemscore

import (
	"eval752/app/dataset"
	"eval752/app/metrics"
	"eval752/app/model"
	"eval752/app/peer"
	"eval752/app/report"
	"eval752/app/stats"
)

// Unit is one annotated item: the unit every denominator counts.
type Unit struct {
	ID     string       `json:"id"`
	Format model.Format `json:"format"`
	// Set is the unit's format family — "eval752" (eval752 items), "b2"
	// (b-2 annotations), "v2" (v2 questions), "rag" (seed-003 questions) or
	// "trec" (TREC qrels queries) — also given as the stratum "set": a
	// figure such as recall@10 means different things on different sets,
	// and a run is scored only on the sets it has results for.
	Set       string        `json:"set"`
	Loc       dataset.Where `json:"loc"`
	Question  string        `json:"question"`
	Reference string        `json:"reference,omitempty"`
	// Strata: "set" (= Set), "split", "modality", "type" (eval752 type / v2 category / seed-003
	// question_type), "difficulty", "source" (meta.source / origin.dataset).
	// Absent keys are not strata of this unit.
	Strata map[string]string `json:"strata"`
	// Answerable is false for b-2 unanswerable, v2 refuse and seed-003
	// answerable=false items ("should refuse" is the positive class).
	Answerable bool `json:"answerable"`
	// Gold is the resolution of this unit's gold entries / evidence groups,
	// shown by the item browser (per run corpus, so resolved per run; this is
	// the first run's, or the shared atom table's).
	Gold []report.GoldDetail `json:"gold,omitempty"`
	// Choices: an eval752 multiple-choice item's options, the gold ones
	// marked (the item browser shows them).
	Choices []report.Choice `json:"choices,omitempty"`
	// Off is the byte offset of Loc's line start (dataset.Loc.Off), so the
	// item browser reads the record again without scanning; 0 when unknown
	// (TREC qrels, peer logs). Never in JSON.
	Off int64 `json:"-"`
}

// ItemScore is what one run scored on one unit.
type ItemScore struct {
	// Missing: the run has no result for this unit. It still counts in every
	// denominator and scores 0 on every applicable metric (seed 000 §4).
	Missing bool `json:"missing"`
	// OutOfScope: the run has no result for any unit of this unit's set
	// (RunScores.Sets), so the unit is not applicable to the run: Values is
	// empty and the unit is in no denominator of the run (not Missing).
	OutOfScope bool `json:"out_of_scope,omitempty"`
	// Values holds metric name → value for the metrics applicable to this
	// unit (e.g. no ndcg for an unanswerable item; no answer metrics when the
	// run has no answer). NaN never appears: not applicable = absent.
	Values report.Values `json:"values"`
	// Unjudged is the number of retrieved candidates within the scoring depth
	// that have no judgment (seed 003: unjudged ≠ 0).
	Unjudged int `json:"unjudged"`
	// Flags name conditions a reviewer must see ("unjudged", "ambiguous-gold").
	Flags []string `json:"flags,omitempty"`
	// Detail is what the item browser shows of the run's answer beside
	// these fields; RunItem assembles the browser's whole report.RunItem.
	Detail ItemAnswer `json:"detail"`
	// Cost inputs, when the result carries them.
	LatencyMS    *float64 `json:"latency_ms,omitempty"`
	InputTokens  *int     `json:"input_tokens,omitempty"`
	OutputTokens *int     `json:"output_tokens,omitempty"`
	CostUSD      *float64 `json:"cost_usd,omitempty"`
	// Stages is seed 003 §6.2's latency_ms split by stage (embedding,
	// retrieve, rerank, generate, …; "total" left out), Usage every usage
	// entry of the result (tokens by kind: embedding_tokens, rerank_tokens,
	// llm_input_tokens, llm_output_tokens; input_tokens / output_tokens of
	// results.jsonl; <stage>_calls when the result counts calls).
	Stages report.Values `json:"stages,omitempty"`
	Usage  report.Values `json:"usage,omitempty"`
	// Errors are the seed 003 §9 codes eval752 attributes to this item
	// (taxonomy order; docs/metrics.md gives each rule).
	Errors []string `json:"errors,omitempty"`
	// Reviewed are the codes the run's errors.jsonl gives this item
	// (taxonomy codes only, in file order, each once).
	Reviewed []string `json:"reviewed,omitempty"`
	// Trace is what seed 003 §9's error records (ErrorRecords) cite, not
	// in the JSON report; nil when the result has none of it (eval752
	// items: 8 bytes a unit instead of 96).
	Trace *ItemTrace `json:"-"`
}

// ItemAnswer is the part of the item browser's report.RunItem that is not
// one of ItemScore's own fields: the response, its verdict and the
// retrieved atoms with their marks. (Storing the whole RunItem repeated
// the Values, Flags and Errors slice headers and the run's name in every
// unit: 96 bytes a unit.)
type ItemAnswer struct {
	Response  string                 `json:"response,omitempty"`
	Correct   *bool                  `json:"correct,omitempty"`
	Retrieved []report.RetrievedMark `json:"retrieved,omitempty"`
}

// RunItem is the item browser's view of it as run's result: Detail with
// the scores (Values), flags, missing mark and error codes (the derived
// codes merged with the reviewed ones, taxonomy order).
func (it *ItemScore) RunItem(run string) report.RunItem {
	ri := report.RunItem{Run: run, Response: it.Detail.Response, Correct: it.Detail.Correct, Missing: it.Missing,
		Retrieved: it.Detail.Retrieved, Flags: it.Flags, Errors: it.Errors}
	if len(it.Values) > 0 {
		ri.Scores = it.Values
	}
	if it.Reviewed != nil {
		ri.Errors = mergeCodes(it.Errors, it.Reviewed)
	}
	return ri
}

// ItemTrace holds, for seed 003 §9's error records, the result's lists as
// written (FirstStage: the first-stage retrieved_chunk_ids, Reranked: a
// reranking prediction's reranked_chunk_ids), its citations, and the
// errors.jsonl lines of the Reviewed codes (the first line of each code).
type ItemTrace struct {
	FirstStage      []string
	Reranked        []string
	Citations       []model.Citation
	ReviewedRecords []model.RAGError
}

// trace returns it.Trace, allocating it first.
func (it *ItemScore) trace() *ItemTrace {
	if it.Trace == nil {
		it.Trace = &ItemTrace{}
	}
	return it.Trace
}

// RunScores is one run's scores, aligned with Set.Units (Items[i] is Units[i]).
type RunScores struct {
	Run   string      `json:"run"`
	Items []ItemScore `json:"items"`
	// Sets is the run's scope: the sets (Unit.Set, unit order) for which it
	// has at least one result. Within its scope every unit counts and a unit
	// without a result is Missing (worst value, seed 000 §4); units of other
	// sets are OutOfScope.
	Sets []string `json:"sets"`
	// Unknown lists result item ids that match no unit (reported, not scored).
	Unknown []string `json:"unknown,omitempty"`
	// Qrels are the run-specific qrels files (seed 003 §10 qrels.tsv)
	// that judge this run's seed-003 units, in load order; a paired
	// comparison says when two runs were judged by different ones.
	Qrels []string `json:"qrels,omitempty"`
	// QrelsDigest are the sha256 of those files' judgments in canonical
	// order (same order as Qrels): two runs judged by files that grade the
	// same chunks the same way share a truth set.
	QrelsDigest []string `json:"qrels_digest,omitempty"`
	// Reranked: the run's ranking is a reranked one (seed 003 §6.1), so
	// seed 003 §7's rerank targets apply to it, not the first-stage ones
	// (its "<run>.retrieve" twin gets those).
	Reranked bool `json:"reranked,omitempty"`
	// Config is the run's seed 003 §10 config.yaml (the one in the folder
	// its predictions came from; a ".retrieve" twin shares it): every key
	// with its value as text (null → "null"). ConfigPath names the file.
	Config     map[string]string `json:"config,omitempty"`
	ConfigPath string            `json:"config_path,omitempty"`
	// Dirs are the folders the run's outputs were read from (a run's
	// metrics.json and config.yaml sit there).
	Dirs []string `json:"-"`
}

// Resolved is one row of the resolution table: a gold entry (or evidence
// anchor / judged anchor) and the atoms it became in one run's corpus.
type Resolved struct {
	Run    string   `json:"run"`
	ItemID string   `json:"item_id"`
	Gold   string   `json:"gold"` // human label: "PH_2016.pdf p.5", "doc_demo_001 [1280,1348)"
	Atoms  []string `json:"atoms"`
	// Problem is "" when resolution is clean, else "no atom", "crosses atom
	// boundary", "partial overlap", "unknown source" …
	Problem string `json:"problem,omitempty"`
}

// Set is every unit and every run's scores.
type Set struct {
	Units   []Unit               `json:"units"`
	Runs    []RunScores          `json:"runs"`
	Metrics []metrics.Descriptor `json:"metrics"` // metrics present in any ItemScore, registry order
	// Resolution is the full resolution table; Ambiguities the rows whose
	// Problem is set (listed for review, never silently dropped).
	Resolution  []Resolved `json:"resolution"`
	Ambiguities []Resolved `json:"ambiguities"`
	// Config echoes the options used (for the report's configuration block).
	Config []report.KV `json:"config"`
	// Notes are remarks of the scoring a reader must see (e.g. a run whose
	// seed-003 evidence groups could not be resolved); package score puts
	// them in the report's summary.
	Notes []Note `json:"notes,omitempty"`
	// Agreement is the two-reviewer agreement of each run's human answer
	// grades (seed 003 §7.6), for runs two reviewers graded.
	Agreement []Agreement `json:"agreement,omitempty"`
	// Headlines are the numbers other tools' logs report beside the values
	// recomputed from their samples (package peer).
	Headlines []Headline `json:"headlines,omitempty"`
	// CIs remembers the bootstrap intervals package score resampled on this
	// Set's columns, so that its score report, paired comparisons and
	// compare-many resample a column once (stats.Memo: the same intervals,
	// bit for bit). nil: each report keeps its own. Not part of the JSON.
	CIs *stats.Memo `json:"-"`
}

// Headline is one reported number of a peer tool's log and its recomputed value.
type Headline struct {
	Tool string `json:"tool"`
	Task string `json:"task"`
	// Status is the log's own status when it is not a finished run
	// (Inspect "cancelled", "error", "started"); "" otherwise.
	Status string `json:"status,omitempty"`
	peer.Reported
}

// headlines lists every reported number of ds's peer logs, in log order.
func headlines(ds *dataset.Dataset) []Headline {
	var out []Headline
	for _, l := range ds.Peers {
		for _, r := range l.Reported {
			h := Headline{Tool: l.Tool, Task: l.Task, Reported: r}
			if l.Status != "" && l.Status != "success" {
				h.Status = l.Status
			}
			out = append(out, h)
		}
	}
	return out
}

// Note is a remark of the scoring about one run ("" = every run).
type Note struct {
	Run  string `json:"run,omitempty"`
	Text string `json:"text"`
}
