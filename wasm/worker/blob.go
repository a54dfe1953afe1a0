//go:build js && wasm

package main

import (
	"fmt"
	"io"
	"sync"
	"syscall/js"
)

// chunkSize is how much of a Blob one FileReaderSync call reads. The zip and
// JSONL readers issue many small ReadAt calls (4 KiB through bufio); reading
// 1 MiB aligned chunks and keeping the last few turns thousands of JS calls
// into a handful while never holding the whole file in memory.
const (
	chunkSize = 1 << 20
	keep      = 4
)

type chunk struct {
	idx  int64
	data []byte
}

// blobReader is an io.ReaderAt over a browser Blob (a user's File): each
// miss reads Blob.slice(a, b) synchronously with FileReaderSync, which only
// exists in workers, so this is worker-only code.
type blobReader struct {
	mu     sync.Mutex
	blob   js.Value
	size   int64
	reader js.Value // FileReaderSync
	cache  []chunk  // most recently used first
	read   func(n int64)
}

func newBlobReader(blob js.Value, onRead func(int64)) *blobReader {
	return &blobReader{
		blob:   blob,
		size:   int64(blob.Get("size").Float()),
		reader: js.Global().Get("FileReaderSync").New(),
		read:   onRead,
	}
}

// errUnreadable is what reading a File that is no longer there (or never
// was a file: a folder dropped by a browser without folder support) says.
const errUnreadable = "the browser cannot read this file: it was moved, deleted or changed since it was picked, or it is a folder; pick or drop it again"

// readBlob reads blob whole with FileReaderSync. FileReaderSync throws (a
// panic of js.Value.Call) when the file is gone: that is an I/O error of
// this input, not a crash of the worker.
func (b *blobReader) readBlob(blob js.Value) (ab js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			jerr, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%s (%s)", errUnreadable, jerr.Get("name").String())
		}
	}()
	return b.reader.Call("readAsArrayBuffer", blob), nil
}

// probe reads the whole of an empty-looking blob: a File whose file was
// deleted after the user gave it can report size 0, and reading it is what
// tells that apart from a truly empty file (it throws).
func (b *blobReader) probe() error {
	if b.size != 0 {
		return nil
	}
	_, err := b.readBlob(b.blob)
	return err
}

func (b *blobReader) chunk(idx int64) ([]byte, error) {
	for i, c := range b.cache {
		if c.idx == idx {
			if i > 0 {
				copy(b.cache[1:i+1], b.cache[:i])
				b.cache[0] = c
			}
			return c.data, nil
		}
	}
	start := idx * chunkSize
	end := min(start+chunkSize, b.size)
	ab, err := b.readBlob(b.blob.Call("slice", float64(start), float64(end)))
	if err != nil {
		return nil, err
	}
	u8 := js.Global().Get("Uint8Array").New(ab)
	data := make([]byte, u8.Get("length").Int())
	js.CopyBytesToGo(data, u8)
	if b.read != nil {
		b.read(int64(len(data)))
	}
	c := chunk{idx: idx, data: data}
	if len(b.cache) < keep {
		b.cache = append(b.cache, chunk{})
	}
	copy(b.cache[1:], b.cache[:len(b.cache)-1])
	b.cache[0] = c
	return data, nil
}

// ReadAt implements io.ReaderAt; it is safe for concurrent use.
func (b *blobReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for n < len(p) && off < b.size {
		idx := off / chunkSize
		data, err := b.chunk(idx)
		if err != nil {
			return n, err
		}
		k := copy(p[n:], data[off-idx*chunkSize:])
		if k == 0 {
			break
		}
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
