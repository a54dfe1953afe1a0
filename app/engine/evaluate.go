package engine

import (
	"context"
	"fmt"

	"eval752/app/audit"
	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/score"
	"eval752/app/validate"
)

// Options configure one evaluation. DefaultOptions gives the documented
// defaults (bootstrap 1000 resamples, seed 42, …).
type Options struct {
	Load     dataset.Options
	Validate validate.Options
	Items    itemscore.Options
	Score    score.Options
	Audit    audit.Options
	// CompareA and CompareB name the runs of the paired comparison; empty
	// means the first two runs found.
	CompareA, CompareB string
	// SkipScore and SkipAudit leave those parts out (validate-only callers;
	// SkipAudit also leaves seed 002's set gates out of Validate, for a
	// draft checked one category at a time).
	SkipScore, SkipAudit bool
}

// DefaultOptions returns the defaults every front end starts from.
func DefaultOptions() Options {
	return Options{
		Load:     dataset.Options{Limits: dataset.DefaultLimits()},
		Validate: validate.DefaultOptions(),
		Items:    itemscore.DefaultOptions(),
		Score:    score.DefaultOptions(),
		Audit:    audit.DefaultOptions(),
	}
}

// Validate loads inputs and runs every validation rule (SPEC §3 gates 1–3,
// seed 002's gates, and the split-isolation gates of seed 003 §3.3, §4.5:
// audit.SplitIsolation). It is what `eval752 validate` prints and what the page
// counts. The dataset is returned for callers that go on to score it.
//
// A panic anywhere inside is recovered: err is then an *InternalError
// holding the one internal.error finding (the panic net).
func Validate(ctx context.Context, inputs []dataset.Input, opt Options, progress func(dataset.Progress)) (_ *dataset.Dataset, _ finding.List, err error) {
	defer guard(inputs, &err)
	lo := opt.Load
	if progress != nil {
		lo.Progress = progress
	}
	ds, err := dataset.Load(ctx, inputs, lo)
	if err != nil {
		return nil, nil, err
	}
	if progress != nil {
		progress(dataset.Progress{Stage: "validate"})
	}
	all := append(finding.List{}, ds.Findings...)
	all = append(all, validate.Run(ds, opt.Validate)...)
	if !opt.SkipAudit {
		all = append(all, audit.Rules(ds, opt.Audit)...)
		// split isolation (seed 003 §3.3, §4.5) is a validation gate
		// (SPEC §3): its errors make `validate` exit 1
		all = append(all, audit.SplitIsolation(ds, opt.Audit)...)
	}
	all = append(all, checkRunMetrics(ds, opt)...)
	ds.Locate(all)
	return ds, all.Normalize().Cap(lo.Limits.MaxFindings), nil
}

// Evaluate loads, validates, scores and audits inputs. Progress, when not
// nil, is called with the current stage; ctx cancels between stages and
// inside loading.
//
// A panic anywhere inside is recovered (the panic net): err is then an
// *InternalError and res a Result holding only its internal.error finding,
// so the page shows it as it shows any finding.
func Evaluate(ctx context.Context, inputs []dataset.Input, opt Options, progress func(dataset.Progress)) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = Recovered(p, inputNames(inputs))
		}
		if ie, ok := AsInternal(err); ok {
			res = internalResult(inputs, ie)
		}
	}()
	ds, findings, err := Validate(ctx, inputs, opt, progress)
	if err != nil {
		return nil, err
	}
	res = &Result{
		Inputs:   ds.Inputs,
		Findings: findings,
		Counts:   findings.Counts(),
		PerCode:  findings.PerCode(),
		Overview: Overview(ds),
		Name:     DatasetName(ds),
	}
	if res.Findings == nil {
		res.Findings = finding.List{}
	}
	if !opt.SkipScore {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(dataset.Progress{Stage: "score"})
		}
		if err := scoreInto(res, ds, opt); err != nil {
			return nil, err
		}
	}
	if !opt.SkipAudit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(dataset.Progress{Stage: "audit"})
		}
		rep, af := audit.Audit(ds, opt.Audit)
		if rep != nil {
			rep.Inputs = ds.Inputs
			res.Audit = rep
			res.AuditFindings = append(append(finding.List{}, res.Findings...), af...).Normalize().Cap(opt.Load.Limits.MaxFindings)
		}
	}
	return res, nil
}

func scoreInto(res *Result, ds *dataset.Dataset, opt Options) error {
	set, err := itemscore.Score(ds, opt.Items)
	if err != nil {
		return fmt.Errorf("scoring: %w", err)
	}
	res.set, res.opt = set, opt
	for _, r := range set.Runs {
		res.Runs = append(res.Runs, r.Run)
	}
	if len(set.Runs) == 0 && len(set.Units) > 0 {
		res.Annotations = score.UnitDetails(set)
	}
	if len(set.Runs) == 0 || len(set.Units) == 0 {
		return nil
	}
	rep := score.Score(set, opt.Score)
	rep.Inputs = ds.Inputs
	res.Score = rep
	a, b := opt.CompareA, opt.CompareB
	if a == "" && b == "" && len(set.Runs) >= 2 {
		a, b = set.Runs[0].Run, set.Runs[1].Run
	}
	if a != "" && b != "" {
		cmp, err := score.Compare(set, a, b, opt.Score)
		if err != nil {
			return fmt.Errorf("comparing %s and %s: %w", a, b, err)
		}
		cmp.Inputs = ds.Inputs
		res.Compare, res.compared = cmp, [2]string{a, b}
	}
	if len(set.Runs) >= 3 {
		many, _, err := score.CompareMany(set, set.Runs[0].Run, nil, opt.Score, score.ManyOptions{TestBudget: score.DefaultTestBudget})
		if err != nil {
			return fmt.Errorf("comparing with %s: %w", set.Runs[0].Run, err)
		}
		many.Inputs = ds.Inputs
		res.Many = many
	}
	return nil
}
