package dataset

import (
	"bytes"
	"encoding/json"
	"slices"

	"eval752/app/model"
)

// After a record is checked (schema, typed decode), only a compact value is
// kept (docs/formats.md "Memory budget"): the typed struct, with its
// repeated strings and small maps interned (one copy for every record that
// has the same run name, split, modality, type, holder, meta or region),
// and of the generic decoding (Rec.Raw) only what rules look up:
//
//   - eval752.item: the presence of "id" and "inputs"."text"
//   - b2.annotation: the presence of "query_id"; "gold"[i]'s "region" and
//     any atom or chunk key written instead of a region (values kept)
//   - rag.question: the presence of "qid"
//   - v2.question, companions, config.yaml: all of it (few records; the
//     gates look up any key)
//   - every other record format: nothing
//
// Where only presence matters the value is nil, so a pruned tree is the
// same for most records and is shared. A record that was not typed keeps
// its whole Raw (rules read what they can of it). A rule that needs
// another part of Raw must add it here.
type interner struct {
	strs  map[string]string
	trees map[string]any
}

func newInterner() *interner {
	return &interner{strs: map[string]string{}, trees: map[string]any{}}
}

// str makes *p the shared copy of its value.
func (in *interner) str(ps ...*string) {
	for _, p := range ps {
		if *p == "" {
			continue
		}
		if s, ok := in.strs[*p]; ok {
			*p = s
		} else {
			in.strs[*p] = *p
		}
	}
}

// tree returns the shared copy of a generic value equal to v (by its JSON
// encoding, keys sorted); v itself when it cannot be encoded.
func (in *interner) tree(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	if t, ok := in.trees[string(b)]; ok {
		return t
	}
	in.trees[string(b)] = v
	return v
}

func (in *interner) meta(m *map[string]any) {
	if *m != nil {
		*m = in.tree(*m).(map[string]any)
	}
}

// present is the pruned form of a key whose value no rule reads.
func present(m map[string]any, key string) (map[string]any, bool) {
	if _, ok := m[key]; ok {
		return map[string]any{key: nil}, true
	}
	return nil, false
}

// compact shrinks the record just appended for format f.
func (l *loader) compact(f model.Format) {
	in := l.intern
	switch f {
	case model.FormatItem:
		r := &l.ds.Items[len(l.ds.Items)-1]
		if !r.Typed {
			return
		}
		raw, _ := r.Raw.(map[string]any)
		keep := map[string]any{}
		if _, ok := raw["id"]; ok {
			keep["id"] = nil
		}
		if inputs, ok := raw["inputs"].(map[string]any); ok {
			t, _ := present(inputs, "text")
			if t == nil {
				t = map[string]any{}
			}
			keep["inputs"] = t
		}
		r.Raw = in.tree(keep)
		in.str(&r.V.Type)
		in.meta(&r.V.Meta)
		for i := range r.V.Inputs.Images {
			in.str(&r.V.Inputs.Images[i])
		}
	case model.FormatResult:
		r := &l.ds.Results[len(l.ds.Results)-1]
		if !r.Typed {
			return
		}
		r.Raw = nil
		in.str(&r.V.Run, &r.V.Verdict, &r.V.Error)
	case model.FormatB2:
		r := &l.ds.B2[len(l.ds.B2)-1]
		if !r.Typed {
			return
		}
		raw, _ := r.Raw.(map[string]any)
		keep := map[string]any{}
		if _, ok := raw["query_id"]; ok {
			keep["query_id"] = nil
		}
		if gold, ok := raw["gold"].([]any); ok {
			g := make([]any, len(gold))
			for i, e := range gold {
				em, ok := e.(map[string]any)
				if !ok {
					g[i] = e
					continue
				}
				k := map[string]any{}
				for _, key := range []string{"region", "atom_id", "chunk_id", "atom", "chunk", "atom_ids", "chunk_ids"} {
					if v, ok := em[key]; ok {
						k[key] = v
					}
				}
				g[i] = k
			}
			keep["gold"] = g
		}
		r.Raw = in.tree(keep)
		v := &r.V
		in.str(&v.Modality, &v.AnswerFormat, &v.AsOf, &v.Split, &v.Scope.Holder, &v.Scope.Scenario, &v.Origin.Dataset, &v.Origin.Revision, &v.Origin.License)
		if v.Scope.Session != nil {
			in.str(v.Scope.Session)
		}
		for i := range v.Gold {
			in.str(&v.Gold[i].SourceID)
			in.meta(&v.Gold[i].Region)
		}
	case model.FormatRAGQuestion:
		r := &l.ds.RAG[len(l.ds.RAG)-1]
		if !r.Typed {
			return
		}
		raw, _ := r.Raw.(map[string]any)
		keep, _ := present(raw, "qid")
		if keep == nil {
			keep = map[string]any{}
		}
		r.Raw = in.tree(keep)
		v := &r.V
		in.str(&v.QuestionType, &v.Difficulty, &v.Modality, &v.Split, &v.SecurityClassification, &v.CreatedBy, &v.ReviewStatus, &v.Hops, &v.DuplicateFamilyID)
	case model.FormatAtom:
		dropRaw(l.ds.Atoms)
	case model.FormatCorpusManifest:
		dropRaw(l.ds.Corpus)
	case model.FormatSources:
		dropRaw(l.ds.Sources)
	case model.FormatClause:
		dropRaw(l.ds.Clauses)
	case model.FormatRAGDocument:
		dropRaw(l.ds.Documents)
	case model.FormatRAGPage:
		dropRaw(l.ds.Pages)
	case model.FormatRAGChunk:
		dropRaw(l.ds.Chunks)
	case model.FormatRAGJudgment:
		dropRaw(l.ds.Judgments)
	case model.FormatRAGPrediction:
		r := &l.ds.Preds[len(l.ds.Preds)-1]
		if r.Typed {
			r.Raw = nil
			in.str(&r.V.RunID)
		}
	}
}

// dropRaw forgets the generic decoding of the last record of recs when it
// was typed: no rule reads it for these formats.
func dropRaw[T any](recs []Rec[T]) {
	if r := &recs[len(recs)-1]; r.Typed {
		r.Raw = nil
	}
}

// estimateLines guesses how many lines a JSONL file of size bytes holds from
// the lines in its head (0 when the head holds none or size is unknown).
func estimateLines(head []byte, size int64) int {
	n := bytes.Count(head, []byte{'\n'})
	if n == 0 || size <= 0 || len(head) == 0 {
		return 0
	}
	est := int64(float64(size) / float64(len(head)) * float64(n) * 1.02)
	return int(min(est, 50_000_000))
}

// reserve grows the record slice of format f by n records before a file is
// read, so a million records are not appended through a chain of copies of
// a growing slice (each growth holds the old and the new array at once:
// at 1M items that was the load's peak).
func (l *loader) reserve(f model.Format, n int) {
	if n <= 0 {
		return
	}
	switch f {
	case model.FormatItem:
		l.ds.Items = slices.Grow(l.ds.Items, n)
	case model.FormatResult:
		l.ds.Results = slices.Grow(l.ds.Results, n)
	case model.FormatB2:
		l.ds.B2 = slices.Grow(l.ds.B2, n)
	case model.FormatRAGQuestion:
		l.ds.RAG = slices.Grow(l.ds.RAG, n)
	case model.FormatRAGChunk:
		l.ds.Chunks = slices.Grow(l.ds.Chunks, n)
	case model.FormatRAGPrediction:
		l.ds.Preds = slices.Grow(l.ds.Preds, n)
	case model.FormatAtom:
		l.ds.Atoms = slices.Grow(l.ds.Atoms, n)
	}
}
