package dataset

import (
	"fmt"
	"runtime/debug"
)

// ReadPanic is what Load panics with when reading an input panicked: the
// original value, the file being read (a bundle's entry as
// "bundle.zip!entry") and the stack where it happened. Load does not turn it into a
// finding itself: the engine boundary (engine.Validate, engine.Evaluate,
// the CLI's Main) recovers every panic, this one or any other, into one
// internal.error finding, and the file named here is what it names.
type ReadPanic struct {
	File  string
	Value any
	Stack []byte
}

func (p *ReadPanic) Error() string {
	return fmt.Sprintf("panic while reading %s: %v", p.File, p.Value)
}

// TestHookRead, when set, is called with the name of every file the loader
// starts to read (tests inject a panic through it, to hold the panic net).
var TestHookRead func(name string)

// netPanic re-panics a panic of the loader as a *ReadPanic naming the file
// being read. It is deferred by Load.
func (l *loader) netPanic() {
	p := recover()
	if p == nil {
		return
	}
	if rp, ok := p.(*ReadPanic); ok {
		panic(rp)
	}
	panic(&ReadPanic{File: l.reading, Value: p, Stack: debug.Stack()})
}
