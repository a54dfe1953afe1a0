package engine

import (
	"bytes"
	"context"
	"io"

	"eval752/app/dataset"
)

// EstimateInputs is the memory Evaluate is expected to need for inputs,
// decided with the test Evaluate itself uses before reading (trecInputs,
// StreamsTREC): plain TREC inputs it will stream get the streaming budget
// (dataset.EstimateStreamedTREC, which grows with the qrels and the
// number of runs, not with the run lines); every other input, and TREC
// runs whose first lines carry the same run name (which Evaluate merges on
// the in-memory path), the in-memory budget (dataset.EstimateInputs). A
// run whose queries are not contiguous ("ungrouped") is only found while
// reading; Evaluate then falls back to the in-memory path, which this
// estimate does not foresee.
func EstimateInputs(ctx context.Context, inputs []dataset.Input, lim dataset.Limits) (dataset.Estimate, error) {
	files, ok := trecInputs(inputs, lim)
	if !ok {
		return dataset.EstimateInputs(ctx, inputs)
	}
	qrels := ""
	tags := map[string]bool{}
	for _, f := range files {
		if f.Qrels {
			qrels = f.Name
			continue
		}
		tag, err := firstRunTag(f.R, f.Size)
		if err != nil {
			return dataset.Estimate{}, err
		}
		if tag != "" && tags[tag] {
			return dataset.EstimateInputs(ctx, inputs)
		}
		tags[tag] = true
	}
	return dataset.EstimateStreamedTREC(inputs, qrels), nil
}

// firstRunTag is the run name (sixth column) of a run file's first line
// with six fields, read from its first 64 KiB ("" when there is none).
func firstRunTag(r io.ReaderAt, size int64) (string, error) {
	head := make([]byte, min(size, 64<<10))
	n, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return "", err
	}
	for _, line := range bytes.Split(head[:n], []byte{'\n'}) {
		if f := bytes.Fields(line); len(f) >= 6 {
			return string(f[5]), nil
		}
	}
	return "", nil
}
