package workside

import (
	"bytes"
	"encoding/json"
	"testing"

	"eval752/app/engine"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

func TestSlimAndExport(t *testing.T) {
	v := 0.5
	rep := &report.Report{Kind: "score", Title: "Scores", Sections: []report.Section{{ID: "s", Title: "S",
		Tables: []report.Table{{ID: "t", Columns: []report.Column{{Key: "m", Label: "m"}},
			Rows: [][]report.Cell{{{Metric: "acc", Stratum: "all", Run: "r1", Value: &v}}}}}}},
		Items: []report.ItemDetail{{ID: "x"}, {ID: "y"}}}
	res := &engine.Result{Score: rep}
	slim, items := Slim(res)
	if slim.Score.Items != nil || len(items) != 2 || len(res.Score.Items) != 2 {
		t.Fatalf("Slim: slim items %v, items %d, original items %d; want nil, 2, 2 (original untouched)", slim.Score.Items, len(items), len(res.Score.Items))
	}
	// The JSON export must be exactly what the report's own renderer writes
	// (the CLI prints rep.WriteJSON), items included.
	var want bytes.Buffer
	rep.WriteJSON(&want)
	name, mime, data, err := Export(res, wire.ExportRequest{What: "score", Format: "json"})
	if err != nil || name != "eval752-score.json" || mime != "application/json" || !bytes.Equal(data, want.Bytes()) {
		t.Errorf("Export json: %v %s %s equal=%v", err, name, mime, bytes.Equal(data, want.Bytes()))
	}
	var back report.Report
	if err := json.Unmarshal(data, &back); err != nil || len(back.Items) != 2 {
		t.Errorf("exported JSON does not read back with its items: %v", err)
	}
	if _, _, _, err := Export(res, wire.ExportRequest{What: "compare", Format: "json"}); err == nil {
		t.Error("Export of a missing report: no error")
	}
	if _, _, _, err := Export(res, wire.ExportRequest{What: "score", Format: "pdf"}); err == nil {
		t.Error("Export in an unknown format: no error")
	}
	_, _, data, err = Export(res, wire.ExportRequest{What: "findings", Format: "csv"})
	if err != nil || string(data) != "severity,code,path,line,pointer,message,hint\n" {
		t.Errorf("findings CSV of no findings = %q, %v; want the header only", data, err)
	}
}
