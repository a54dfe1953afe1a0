package workside

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"path"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/formats"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

// WarmLines is how many lines of each JSONL entry the warm-up sample keeps.
const WarmLines = 8

// WarmSample cuts a bundle (zip bytes: the worker uses the demo bundle the
// page serves) down to a small sample of another shape: every JSONL entry
// keeps its first keep lines, every other entry stays as it is, and the
// entries become the files of a folder (so the bundle's manifest, whose
// hashes no longer match, is read like a user's folder). The worker's
// warm-up evaluates it once, so the code a load runs — reading, schema
// checks, scoring, the audit, report JSON — has been run, and compiled by
// the browser's optimising tier, before a user's file comes.
func WarmSample(zipBytes []byte, keep int) ([]dataset.Input, error) {
	zr, err := zip.NewReader(bytes.NewReader(zipBytes), int64(len(zipBytes)))
	if err != nil {
		return nil, err
	}
	var in []dataset.Input
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		if path.Ext(f.Name) == ".jsonl" {
			b = firstLines(b, keep)
		}
		name := "warm-up/" + f.Name
		in = append(in, dataset.Input{Name: name, R: bytes.NewReader(b), Size: int64(len(b)), InFolder: true})
	}
	return in, nil
}

// firstLines is b up to the end of its keep-th line.
func firstLines(b []byte, keep int) []byte {
	off := 0
	for i := 0; i < keep; i++ {
		j := bytes.IndexByte(b[off:], '\n')
		if j < 0 {
			return b
		}
		off += j + 1
	}
	return b[:off]
}

// WarmUp compiles every format's JSON Schema and then evaluates inputs (a
// WarmSample) as a load does, encoding the reports as they cross to the
// page; the result is dropped. Between two steps it calls pause, which
// returns false when the warm-up must stop (a user's job came): the
// worker's pause sleeps a millisecond, which hands control back to the
// browser so the job's message is taken. Evaluate's progress calls are
// the steps of the evaluation; a stopped evaluation is cancelled through
// its context. It reports whether it ran to the end.
func WarmUp(inputs []dataset.Input, pause func() bool) bool {
	for _, f := range formats.SchemaFormats() {
		formats.Prepare(f) // a broken schema is the load's finding, not the warm-up's
		if !pause() {
			return false
		}
	}
	if len(inputs) == 0 {
		return true
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := false
	res, err := engine.Evaluate(ctx, inputs, engine.DefaultOptions(), func(p dataset.Progress) {
		if !stopped && !pause() {
			stopped = true
			cancel()
		}
	})
	if stopped || err != nil || res == nil {
		return false
	}
	slim, _ := Slim(res)
	for _, rep := range []*report.Report{slim.Overview, slim.Score, slim.Compare, slim.Many, slim.Audit} {
		if rep == nil {
			continue
		}
		if _, _, err := wire.SplitReport(rep); err != nil {
			return false
		}
		if !pause() {
			return false
		}
	}
	return true
}
