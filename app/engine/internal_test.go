package engine

import (
	"context"
	"strings"
	"testing"

	"eval752/app/dataset"
)

// injectPanic makes reading a file whose name ends with suffix panic, for
// the duration of the test.
func injectPanic(t *testing.T, suffix string) {
	t.Helper()
	old := dataset.TestHookRead
	dataset.TestHookRead = func(name string) {
		if strings.HasSuffix(name, suffix) {
			panic("injected for the test")
		}
	}
	t.Cleanup(func() { dataset.TestHookRead = old })
}

// The panic net: a panic while reading a bundle's entry is one
// internal.error finding naming that entry (bundle!entry), saying it is a
// bug to report; Evaluate still returns a Result holding it, so the page
// shows it like any finding.
func TestPanicNetNamesTheFile(t *testing.T) {
	injectPanic(t, "sections/general.jsonl")
	in := demoInput(t, false)
	for _, run := range []struct {
		name string
		call func() (*Result, error)
	}{
		{"Evaluate", func() (*Result, error) { return Evaluate(context.Background(), in, DefaultOptions(), nil) }},
		{"Validate", func() (*Result, error) {
			v, err := Validate(context.Background(), in, DefaultOptions(), nil)
			if v == nil {
				return nil, err
			}
			return &Result{Findings: v.Findings}, err
		}},
	} {
		res, err := run.call()
		ie, ok := AsInternal(err)
		if !ok {
			t.Fatalf("%s: err = %v, want an *InternalError", run.name, err)
		}
		f := ie.Finding
		if f.Code != "internal.error" || f.Path != "demo.eval752.zip!sections/general.jsonl" ||
			!strings.Contains(f.Message, "injected for the test") || !strings.Contains(f.Message, "bug") {
			t.Errorf("%s: finding %+v", run.name, f)
		}
		if strings.Contains(f.Message, "goroutine") || strings.Contains(f.Message, "\n") {
			t.Errorf("%s: the message carries a stack: %q", run.name, f.Message)
		}
		if !strings.Contains(string(ie.Stack), "TestHookRead") && !strings.Contains(string(ie.Stack), "injectPanic") {
			t.Errorf("%s: the stack is not the panic's:\n%s", run.name, ie.Stack)
		}
		if run.name == "Evaluate" && (res == nil || len(res.Findings) != 1 || res.Findings[0] != f || res.Counts.Error != 1 || len(res.Inputs) != 1) {
			t.Errorf("Evaluate's result %+v", res)
		}
	}
}
