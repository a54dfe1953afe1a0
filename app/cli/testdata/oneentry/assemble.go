// A command that assembles the pipeline itself, as app/cli/score.go did
// before engine ran every command: TestCLIOnlyCallsTheEngineCanFail checks
// that the structural test reports it. Not compiled (testdata).
package cli

import (
	"context"
	"io"

	"eval752/app/dataset"
	"eval752/app/itemscore"
	"eval752/app/report"
	"eval752/app/score"
	"eval752/app/trec"
)

func runAssembled(ctx context.Context, inputs []dataset.Input, w io.Writer) error {
	ds, err := dataset.Load(ctx, inputs, dataset.Options{Limits: dataset.DefaultLimits()})
	if err != nil {
		return err
	}
	set, err := itemscore.Score(ds, itemscore.DefaultOptions())
	if err != nil {
		return err
	}
	var rep *report.Report = score.Score(set, score.DefaultOptions())
	_ = trec.DefaultOptions()
	return rep.WriteJSON(w)
}
