// Package workside holds the worker-side helpers that need the full
// engine.Result: slimming it before it crosses to the UI thread, and
// rendering exports. It is linked into the worker WASM only, so the page's
// WASM does not carry the core.
package workside

import (
	"bytes"
	"encoding/json"
	"fmt"

	"eval752/app/audit"
	"eval752/app/engine"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

// Export renders what req names from the full result r (items included, as
// the CLI prints them) and returns a file name, a MIME type and the bytes.
// Report exports go through the report package's own renderers, so the
// downloaded JSON is byte-for-byte what `eval752 score --json` prints for
// the same inputs.
func Export(r *engine.Result, req wire.ExportRequest) (name, mime string, data []byte, err error) {
	var buf bytes.Buffer
	var rep *report.Report
	// file names carry the dataset's name, so two sets' downloads do not
	// overwrite each other: "<name>-score.json"
	pre := engine.SafeName(r.Name)
	switch req.What {
	case "items":
		// one row per item and run (= eval752 score --items-csv)
		items := []report.ItemDetail(nil)
		switch {
		case r.Score != nil:
			items = r.Score.Items
		case r.Compare != nil:
			items = r.Compare.Items
		default:
			items = r.Annotations
		}
		if items == nil {
			return "", "", nil, fmt.Errorf("there are no per-item details for these inputs")
		}
		err := report.WriteItemsCSV(&buf, items)
		return pre + "-items.csv", "text/csv", buf.Bytes(), err
	case "score":
		rep = r.Score
	case "compare":
		rep = r.Compare
	case "many":
		rep = r.Many
	case "errors":
		// the results bundle's errors.jsonl, byte for byte
		files, err := engine.ResultsFiles(r)
		if err != nil {
			return "", "", nil, err
		}
		for _, f := range files {
			if f.Name == "errors.jsonl" {
				return "eval752-errors.jsonl", "application/x-ndjson", f.Data, nil
			}
		}
		return "", "", nil, fmt.Errorf("no item has an error code")
	case "audit":
		// as `eval752 audit` prints it: the report with the findings
		switch {
		case r.Audit == nil:
		case req.Format == "json":
			err := audit.WriteJSON(&buf, r.Audit, r.AuditFindings)
			return pre + "-audit.json", "application/json", buf.Bytes(), err
		case req.Format == "md":
			err := audit.WriteMarkdown(&buf, r.Audit, r.AuditFindings)
			return pre + "-audit.md", "text/markdown", buf.Bytes(), err
		}
		rep = r.Audit
	case "overview":
		rep = r.Overview
	case "result":
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			return "", "", nil, err
		}
		return pre + "-result.json", "application/json", buf.Bytes(), nil
	case "findings":
		fs := r.Findings
		if q := req.Filter; q != nil {
			all := *q
			all.Offset, all.Limit = 0, len(fs)
			fs = wire.FindingsPage(fs, all).Findings
		}
		if req.Format == "json" {
			// as `eval752 validate --json` prints it
			if err := engine.WriteValidateJSON(&buf, r.Inputs, fs); err != nil {
				return "", "", nil, err
			}
			return pre + "-findings.json", "application/json", buf.Bytes(), nil
		}
		if err := engine.WriteFindingsCSV(&buf, fs); err != nil {
			return "", "", nil, err
		}
		return pre + "-findings.csv", "text/csv", buf.Bytes(), nil
	case "results":
		// everything above in one zip, as `eval752 results` writes it
		if err := engine.WriteResultsZip(&buf, r); err != nil {
			return "", "", nil, err
		}
		return pre + "-results.zip", "application/zip", buf.Bytes(), nil
	default:
		return "", "", nil, fmt.Errorf("unknown export %q", req.What)
	}
	if rep == nil {
		return "", "", nil, fmt.Errorf("there is no %s report for these inputs", req.What)
	}
	base := pre + "-" + req.What
	switch req.Format {
	case "json":
		err = rep.WriteJSON(&buf)
		name, mime = base+".json", "application/json"
	case "md":
		err = rep.WriteMarkdown(&buf)
		name, mime = base+".md", "text/markdown"
	case "csv":
		err = rep.WriteCSV(&buf)
		name, mime = base+".csv", "text/csv"
	default:
		return "", "", nil, fmt.Errorf("unknown export format %q", req.Format)
	}
	if err != nil {
		return "", "", nil, err
	}
	return name, mime, buf.Bytes(), nil
}

// Slim returns a copy of r whose reports carry no Items (they can be tens of
// megabytes; the item browser pages through them in the worker) and the
// items of the score report (or, without one, of the comparison).
func Slim(r *engine.Result) (engine.Result, []report.ItemDetail) {
	out := *r
	var items []report.ItemDetail
	strip := func(p *report.Report) *report.Report {
		if p == nil {
			return nil
		}
		c := *p
		if items == nil && len(c.Items) > 0 {
			items = c.Items
		}
		c.Items = nil
		return &c
	}
	out.Score = strip(r.Score)
	out.Compare = strip(r.Compare)
	out.Many = strip(r.Many)
	out.Audit = strip(r.Audit)
	out.Overview = strip(r.Overview)
	if items == nil {
		items = r.Annotations // a set without runs: its items, no run detail
	}
	out.Annotations = nil
	return out, items
}
