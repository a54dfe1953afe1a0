package engine

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
)

// RuleInternal is the panic net's finding: a panic is never the user's
// message. Every command and the page's worker recover at the engine
// boundary and report the panic as this one finding, naming the file being
// read; exit status 2 (the command could not run).
var RuleInternal = finding.Register(finding.Rule{
	Code: "internal.error", Severity: finding.Error, Family: "internal",
	Description: "eval752 stopped on an internal error (a bug): the findings and figures of this run are incomplete",
	Source:      "spec: bad input gets a located finding, never a crash (issue 9, the panic net)",
	Hint:        "this is a bug in eval752, not necessarily in the file: please report it with this message, the command and (if you can share it) the file; the other inputs can be checked without it",
})

// InternalError is the error Validate and Evaluate return when the work
// panicked: Finding is the internal.error finding to show, Stack where the
// panic happened (for a bug report; not part of the finding).
type InternalError struct {
	Finding finding.Finding
	Stack   []byte
}

func (e *InternalError) Error() string { return e.Finding.Message }

// AsInternal returns err's *InternalError, if it is one.
func AsInternal(err error) (*InternalError, bool) {
	var ie *InternalError
	ok := errors.As(err, &ie)
	return ie, ok
}

// Recovered turns a recovered panic value into an *InternalError. The file
// named is the one the loader was reading (a *dataset.ReadPanic says), else
// fallback (the inputs, when the panic came after reading).
func Recovered(p any, fallback string) *InternalError {
	file, val, stack := fallback, p, []byte(nil)
	if rp, ok := p.(*dataset.ReadPanic); ok {
		if rp.File != "" {
			file = rp.File
		}
		val, stack = rp.Value, rp.Stack
	}
	if stack == nil {
		stack = debug.Stack()
	}
	where := "reading " + file
	if file == "" {
		where = "running"
	}
	msg := fmt.Sprintf("internal error while %s: %s%s; this is a bug in eval752, please report it",
		where, oneLine(fmt.Sprint(val)), frame(stack))
	return &InternalError{Finding: RuleInternal.At(file, 0, "", "%s", msg), Stack: stack}
}

// inputNames names the inputs of a run for a panic after reading.
func inputNames(inputs []dataset.Input) string {
	names := make([]string, 0, len(inputs))
	for _, in := range inputs {
		names = append(names, in.Name)
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(names)-3))
	}
	return strings.Join(names, ", ")
}

// guard is deferred by Validate and Evaluate: a panic becomes err.
func guard(inputs []dataset.Input, err *error) {
	if p := recover(); p != nil {
		*err = Recovered(p, inputNames(inputs))
	}
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:197]) + "…"
	}
	return s
}

// frame is " (at file.go:N)" for the innermost eval752 frame of a stack
// below the panic, so a report says where without the whole stack.
func frame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	past := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "panic(") {
			past = true
			continue
		}
		if !past || !strings.Contains(t, "/app/") || !strings.Contains(t, ".go:") {
			continue
		}
		if strings.Contains(t, "/app/engine/internal.go") || strings.Contains(t, "/app/dataset/panic.go") {
			continue
		}
		i := strings.Index(t, "/app/")
		loc := t[i+1:]
		if j := strings.LastIndex(loc, " +0x"); j >= 0 {
			loc = loc[:j]
		}
		return " (at " + loc + ")"
	}
	return ""
}

// internalResult is what Evaluate returns with an *InternalError: the inputs
// as given and the one finding.
func internalResult(inputs []dataset.Input, ie *InternalError) *Result {
	res := &Result{Findings: finding.List{ie.Finding}}
	for _, in := range inputs {
		res.Inputs = append(res.Inputs, dataset.InputInfo{Path: in.Name, Size: in.Size})
	}
	res.Counts = res.Findings.Counts()
	res.PerCode = res.Findings.PerCode()
	return res
}
