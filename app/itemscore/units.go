package itemscore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"eval752/app/dataset"
	"eval752/app/model"
	"eval752/app/peer"
	"eval752/app/report"
)

// peerFormat is the format of the log a peer unit was first read from.
func peerFormat(ds *dataset.Dataset, u *peer.Unit) model.Format {
	for _, l := range ds.Peers {
		if strings.HasPrefix(u.Loc.Path, strings.Split(l.Path, " + ")[0]) || strings.Contains(l.Path, u.Loc.Path) {
			return l.Format
		}
	}
	return model.FormatUnknown
}

// unitSpec is a Unit plus the record it came from.
type unitSpec struct {
	Unit
	idx  int
	item *model.Item
	b2   *model.B2
	v2   *model.V2Question
	rag  *model.RAGQuestion
	trec *trecUnit
	peer *peer.Unit
}

// trecUnit is one query of a TREC qrels file: docno → grade.
type trecUnit struct {
	grades map[string]int
	docs   []string // qrels order
}

// buildUnits lists every annotated item of every set, in the order eval752
// items, b-2, v2, seed 003, TREC qrels queries (byte order of qid); records that did not decode are skipped (the
// schema check reports them). Ids repeated across sets keep their first unit
// for result lookup.
//
// Qrels lines whose qid is a seed-003 question's qid are not TREC units:
// they are that question's chunk-level judgments (seed 003 §10: a run's
// qrels.tsv is the anchored judgments resolved to its chunks) and are
// returned as chunk qrels, applied per run by the scorer.
func buildUnits(ds *dataset.Dataset) ([]*unitSpec, map[string]int, []chunkQrels) {
	var us []*unitSpec
	strata := newStrataInterner().of
	for r := range typedRecs(ds.Items) {
		it := &r.V
		u := &unitSpec{item: it, Unit: Unit{ID: it.ID, Format: model.FormatItem, Set: "eval752", Loc: ds.Where(r.Loc), Off: r.Loc.Off, Question: it.Inputs.Text, Answerable: true}}
		u.Reference = rawText(it.Answer)
		u.Choices = markChoices(it.Choices, it.Answer)
		u.Strata = strata(
			"set", u.Set,
			"split", metaString(it.Meta, "split"),
			"modality", itemModality(it),
			"type", it.Type,
			"difficulty", metaString(it.Meta, "difficulty"),
			"source", metaString(it.Meta, "source"),
		)
		us = append(us, u)
	}
	for r := range typedRecs(ds.B2) {
		b := &r.V
		u := &unitSpec{b2: b, Unit: Unit{ID: b.QueryID, Format: model.FormatB2, Set: "b2", Loc: ds.Where(r.Loc), Off: r.Loc.Off, Question: b.Question, Answerable: !b.Unanswerable}}
		u.Reference = rawText(b.Answer)
		u.Strata = strata("set", u.Set, "split", b.Split, "modality", b.Modality, "type", b.AnswerFormat, "source", b.Origin.Dataset)
		us = append(us, u)
	}
	for r := range typedRecs(ds.V2) {
		q := &r.V
		u := &unitSpec{v2: q, Unit: Unit{ID: q.ID, Format: model.FormatV2Question, Set: "v2", Loc: ds.Where(r.Loc), Off: r.Loc.Off, Question: q.Question, Answerable: q.Category != model.CategoryRefuse}}
		if q.Answer != nil {
			u.Reference = *q.Answer
		}
		u.Strata = strata("set", u.Set, "split", q.Split, "type", q.Category, "source", q.Origin)
		us = append(us, u)
	}
	for r := range typedRecs(ds.RAG) {
		q := &r.V
		u := &unitSpec{rag: q, Unit: Unit{ID: q.QID, Format: model.FormatRAGQuestion, Set: "rag", Loc: ds.Where(r.Loc), Off: r.Loc.Off, Question: q.Query, Answerable: q.Answerable}}
		if q.ReferenceAnswer != nil {
			u.Reference = *q.ReferenceAnswer
		}
		u.Strata = strata("set", u.Set, "split", q.Split, "modality", q.Modality, "type", q.QuestionType, "difficulty", q.Difficulty, "source", q.CreatedBy)
		us = append(us, u)
	}
	ragQIDs := map[string]bool{}
	for _, u := range us {
		if u.rag != nil {
			ragQIDs[u.ID] = true
		}
	}
	// a question that could not be read (validation reports it) is still
	// a question: its qrels lines are its judgments, not a TREC query
	unreadRAG := map[string]bool{}
	for _, r := range ds.RAG {
		m, _ := r.Raw.(map[string]any)
		if id, ok := m["qid"].(string); ok && !r.Typed && !ragQIDs[id] {
			unreadRAG[id] = true
		}
	}
	var cq []chunkQrels
	for _, qf := range ds.Qrels {
		byQID := map[string]*unitSpec{}
		var order []string
		var chunk *chunkQrels
		for _, j := range qf.Judgments {
			if unreadRAG[j.QID] {
				continue
			}
			if ragQIDs[j.QID] {
				if chunk == nil {
					chunk = newChunkQrels(qf.Path)
				}
				chunk.add(j.QID, j.DocNo, j.Grade)
				continue
			}
			u, ok := byQID[j.QID]
			if !ok {
				u = &unitSpec{trec: &trecUnit{grades: map[string]int{}}, Unit: Unit{ID: j.QID, Format: model.FormatTRECQrels, Set: "trec",
					Loc: dataset.Where{Path: qf.Path, Line: j.Line}, Answerable: true, Strata: strata("set", "trec")}}
				byQID[j.QID] = u
				order = append(order, j.QID)
			}
			if _, dup := u.trec.grades[j.DocNo]; !dup {
				u.trec.docs = append(u.trec.docs, j.DocNo)
			}
			u.trec.grades[j.DocNo] = j.Grade
		}
		// trec_eval's query order: qids in byte order.
		slices.Sort(order)
		for _, q := range order {
			us = append(us, byQID[q])
		}
		if chunk != nil {
			cq = append(cq, *chunk)
		}
	}
	pus, _ := peer.Match(ds.Peers)
	for i := range pus {
		pu := &pus[i]
		u := &unitSpec{peer: pu, Unit: Unit{ID: pu.ID, Format: peerFormat(ds, pu), Set: pu.Set, Loc: dataset.Where{Path: pu.Loc.Path, Line: pu.Loc.Line},
			Question: pu.Input, Reference: pu.Target, Answerable: true}}
		u.Strata = strata("set", u.Set, "split", pu.Split, "type", pu.Task, "source", pu.Tool)
		us = append(us, u)
	}
	byID := map[string]int{}
	for i, u := range us {
		if _, dup := byID[u.ID]; !dup {
			byID[u.ID] = i
		}
	}
	return us, byID, cq
}

// strata builds the strata map from key, value pairs, leaving out empty values.
func strata(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			m[kv[i]] = kv[i+1]
		}
	}
	return m
}

// strataInterner gives every unit with the same strata one shared map (a
// million items have a handful of split × type × difficulty × source
// combinations: one map each instead of one map, ≈ 300 bytes, a unit).
// Unit.Strata is read-only once built.
type strataInterner struct {
	maps map[string]map[string]string
	key  []byte
}

func newStrataInterner() *strataInterner {
	return &strataInterner{maps: map[string]map[string]string{}}
}

// of returns the shared map of strata(kv...).
func (si *strataInterner) of(kv ...string) map[string]string {
	k := si.key[:0]
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			k = append(append(append(append(k, kv[i]...), 0), kv[i+1]...), 0)
		}
	}
	si.key = k
	if m, ok := si.maps[string(k)]; ok {
		return m
	}
	m := strata(kv...)
	si.maps[string(k)] = m
	return m
}

func metaString(m map[string]any, key string) string {
	switch v := m[key].(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

// itemModality is meta.modality, else what the inputs carry.
func itemModality(it *model.Item) string {
	if m := metaString(it.Meta, "modality"); m != "" {
		return m
	}
	switch {
	case len(it.Inputs.VideoPaths()) > 0:
		return "video"
	case len(it.Inputs.Images) > 0:
		return "image"
	case len(it.Inputs.AudioPaths()) > 0:
		return "audio"
	}
	return "text"
}

// rawText renders a raw answer for people: a string as is, an array joined
// with ", ", a number as written, null as "".
// markChoices lists an item's choices with the gold answer(s) marked: the
// answer string (mcq_single) or each string of the answer array
// (mcq_multi), compared exactly as the item gives them.
func markChoices(choices []string, answer model.Raw) []report.Choice {
	if len(choices) == 0 {
		return nil
	}
	gold := map[string]bool{}
	if s := rawString(answer); s != "" {
		gold[s] = true
	}
	for _, s := range rawStrings(answer) {
		gold[s] = true
	}
	out := make([]report.Choice, len(choices))
	for i, c := range choices {
		out[i] = report.Choice{Text: c, Answer: gold[c]}
	}
	return out
}

func rawText(raw model.Raw) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ", ")
	}
	return strings.TrimSpace(string(raw))
}
