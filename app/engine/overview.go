package engine

import (
	"sort"

	"eval752/app/dataset"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/version"
)

// Overview summarises what was loaded: one row per input file, and the
// number of items per set format broken down by split, modality, type /
// category and difficulty — the reviewer's first look at a bundle.
func Overview(ds *dataset.Dataset) *report.Report {
	return overview(ds, qrelsCount(ds), runLineCount(ds))
}

// overview is Overview of v: a streamed evaluation counts its TREC records
// from the stream.
func (v *Validation) overview() *report.Report {
	if v.stream != nil {
		q, r := v.stream.records()
		return overview(v.ds, q, r)
	}
	return Overview(v.ds)
}

func overview(ds *dataset.Dataset, nQrels, nRun int) *report.Report {
	rep := &report.Report{
		Kind:   "overview",
		Title:  "What was loaded",
		Tool:   report.Tool{Name: version.Name, Version: version.Version},
		Inputs: ds.Inputs,
	}
	files := report.Table{
		ID:    "inputs",
		Title: "Files",
		Columns: []report.Column{
			{Key: "path", Label: "file"}, {Key: "format", Label: "format"},
			{Key: "lines", Label: "lines"}, {Key: "size", Label: "bytes"}, {Key: "sha256", Label: "sha256"},
		},
	}
	for _, in := range ds.Inputs {
		files.Rows = append(files.Rows, []report.Cell{
			{Text: in.Path}, {Text: string(in.Format)},
			intCell(in.Lines), intCell(int(in.Size)), {Text: in.SHA256},
		})
	}
	sec := report.Section{ID: "inputs", Title: "Inputs", Tables: []report.Table{files}}
	rep.Sections = append(rep.Sections, sec)

	counts := report.Section{ID: "counts", Title: "Items"}
	add := func(id, title string, rows []row) {
		if len(rows) == 0 {
			return
		}
		counts.Tables = append(counts.Tables, breakdown(id, title, rows))
	}
	var items []row
	for _, r := range ds.Items {
		if !r.Typed {
			continue
		}
		items = append(items, row{"type": r.V.Type, "split": metaString(r.V.Meta, "split"), "difficulty": metaString(r.V.Meta, "difficulty"), "source": metaString(r.V.Meta, "source")})
	}
	add("eval752", "eval752 items (seed 004)", items)
	var b2 []row
	for _, r := range ds.B2 {
		if !r.Typed {
			continue
		}
		ans := "answerable"
		if r.V.Unanswerable {
			ans = "unanswerable"
		}
		b2 = append(b2, row{"split": r.V.Split, "modality": r.V.Modality, "answerable": ans, "source": r.V.Origin.Dataset})
	}
	add("b2", "b-2 annotations (seed 000)", b2)
	var v2 []row
	for _, r := range ds.V2 {
		if !r.Typed {
			continue
		}
		v2 = append(v2, row{"split": r.V.Split, "category": r.V.Category, "origin": r.V.Origin})
	}
	add("v2", "test set v2 (seed 002)", v2)
	var rag []row
	for _, r := range ds.RAG {
		if !r.Typed {
			continue
		}
		ans := "answerable"
		if !r.V.Answerable {
			ans = "unanswerable"
		}
		rag = append(rag, row{"split": r.V.Split, "type": r.V.QuestionType, "modality": r.V.Modality, "difficulty": r.V.Difficulty, "answerable": ans})
	}
	add("rag", "RAG questions (seed 003)", rag)

	other := report.Table{
		ID:      "records",
		Title:   "Records per format",
		Columns: []report.Column{{Key: "format", Label: "format"}, {Key: "records", Label: "records"}},
	}
	for _, fc := range []struct {
		f model.Format
		n int
	}{
		{model.FormatItem, len(ds.Items)}, {model.FormatB2, len(ds.B2)}, {model.FormatV2Question, len(ds.V2)},
		{model.FormatRAGQuestion, len(ds.RAG)}, {model.FormatResult, len(ds.Results)}, {model.FormatAtom, len(ds.Atoms)},
		{model.FormatCorpusManifest, len(ds.Corpus)}, {model.FormatSources, len(ds.Sources)}, {model.FormatClause, len(ds.Clauses)}, {model.FormatVerdict, len(ds.Verdicts)},
		{model.FormatRAGDocument, len(ds.Documents)}, {model.FormatRAGPage, len(ds.Pages)}, {model.FormatRAGChunk, len(ds.Chunks)},
		{model.FormatRAGJudgment, len(ds.Judgments)}, {model.FormatRAGPrediction, len(ds.Preds)}, {model.FormatRAGConfig, len(ds.Configs)}, {model.FormatRAGMetrics, len(ds.Metrics)}, {model.FormatRAGErrors, len(ds.Errors)}, {model.FormatRAGGrades, len(ds.Grades)},
		{model.FormatTRECQrels, nQrels}, {model.FormatTRECRun, nRun},
	} {
		if fc.n > 0 {
			other.Rows = append(other.Rows, []report.Cell{{Text: string(fc.f)}, intCell(fc.n)})
		}
	}
	if len(other.Rows) > 0 {
		counts.Tables = append([]report.Table{other}, counts.Tables...)
	}
	if len(counts.Tables) > 0 {
		rep.Sections = append(rep.Sections, counts)
	}
	return rep
}

type row map[string]string

// breakdown counts rows by every key they carry: one line per key=value.
func breakdown(id, title string, rows []row) report.Table {
	t := report.Table{
		ID:      id,
		Title:   title,
		Columns: []report.Column{{Key: "stratum", Label: "stratum"}, {Key: "items", Label: "items"}, {Key: "share", Label: "share"}},
	}
	t.Rows = append(t.Rows, []report.Cell{{Text: "all"}, intCell(len(rows)), {Value: report.F(1), Digits: 3}})
	keys := map[string]map[string]int{}
	for _, r := range rows {
		for k, v := range r {
			if v == "" {
				continue
			}
			if keys[k] == nil {
				keys[k] = map[string]int{}
			}
			keys[k][v]++
		}
	}
	kk := make([]string, 0, len(keys))
	for k := range keys {
		kk = append(kk, k)
	}
	sort.Strings(kk)
	for _, k := range kk {
		vv := make([]string, 0, len(keys[k]))
		for v := range keys[k] {
			vv = append(vv, v)
		}
		sort.Strings(vv)
		for _, v := range vv {
			n := keys[k][v]
			t.Rows = append(t.Rows, []report.Cell{{Text: k + "=" + v}, intCell(n), {Value: report.F(float64(n) / float64(len(rows))), Digits: 3}})
		}
	}
	return t
}

func intCell(n int) report.Cell {
	return report.Cell{Value: report.F(float64(n)), Int: true}
}

func metaString(m map[string]any, k string) string {
	if s, ok := m[k].(string); ok {
		return s
	}
	return ""
}

func qrelsCount(ds *dataset.Dataset) int {
	n := 0
	for _, q := range ds.Qrels {
		n += len(q.Judgments)
	}
	return n
}

func runLineCount(ds *dataset.Dataset) int {
	n := 0
	for _, r := range ds.Runs {
		n += len(r.Lines)
	}
	return n
}
