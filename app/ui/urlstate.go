package ui

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/ui/wire"
)

// viewState is what the URL hash holds: the view, the findings filters and
// sort, the open finding, the items filters and the open item, the compared
// runs. The hash is `#view=findings&sev=error&finding=12`: keys with their
// default value are left out, and url.Values encodes them in key order, so
// one state has one hash. The page writes it after every render (a new
// history entry when the view, the open item or the open finding changes,
// the same entry for a filter), and applies it on Back / Forward, on a link
// to a hash (the comparison's item links) and at start (a deep link; its
// filters wait for the first result).
type viewState struct {
	View string

	Sev, Rule, File string // findings filters
	Sort            string // findings sort column ("" = severity first)
	Desc            bool
	From            int // first finding shown (a page of findingsPage)
	Finding         int // index of the open finding in the filtered, sorted list; -1 none

	Search            string // items filters
	Failures, Differs bool
	RunA, RunB        string // the differences filter's runs
	Item              string // the open item's id
	ErrorCode         string // items with this seed 003 §9 code (wire.ItemQuery.ErrorCode)
	ItemSort          string // items sort (wire.ItemQuery.Sort)
	ItemDesc          bool

	CmpA, CmpB string // compared runs ("" = the first two)
}

func (s viewState) encode() string {
	v := url.Values{}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	flag := func(k string, b bool) {
		if b {
			v.Set(k, "1")
		}
	}
	if s.View != "overview" {
		set("view", s.View)
	}
	set("sev", s.Sev)
	set("rule", s.Rule)
	set("file", s.File)
	set("sort", s.Sort)
	flag("desc", s.Desc)
	if s.From > 0 {
		v.Set("from", strconv.Itoa(s.From))
	}
	if s.Finding >= 0 {
		v.Set("finding", strconv.Itoa(s.Finding))
	}
	set("q", s.Search)
	flag("failures", s.Failures)
	flag("differences", s.Differs)
	set("run_a", s.RunA)
	set("run_b", s.RunB)
	set("item", s.Item)
	set("code", s.ErrorCode)
	set("isort", s.ItemSort)
	flag("idesc", s.ItemDesc)
	set("a", s.CmpA)
	set("b", s.CmpB)
	return v.Encode()
}

// parseState reads a hash (with or without its '#'); unknown keys and
// values that do not parse are ignored.
func parseState(h string) viewState {
	v, _ := url.ParseQuery(strings.TrimPrefix(h, "#"))
	num := func(k string, def int) int {
		if n, err := strconv.Atoi(v.Get(k)); err == nil && n >= 0 {
			return n
		}
		return def
	}
	s := viewState{
		View: v.Get("view"),
		Sev:  v.Get("sev"), Rule: v.Get("rule"), File: v.Get("file"),
		Sort: v.Get("sort"), Desc: v.Get("desc") == "1",
		From: num("from", 0), Finding: num("finding", -1),
		Search: v.Get("q"), Failures: v.Get("failures") == "1", Differs: v.Get("differences") == "1",
		RunA: v.Get("run_a"), RunB: v.Get("run_b"), Item: v.Get("item"), ErrorCode: v.Get("code"),
		ItemSort: v.Get("isort"), ItemDesc: v.Get("idesc") == "1",
		CmpA: v.Get("a"), CmpB: v.Get("b"),
	}
	if !validTab(s.View) {
		s.View = "overview"
	}
	return s
}

// isStateHash tells a state hash (key=value pairs) from a plain anchor.
func isStateHash(h string) bool { return strings.Contains(h, "=") }

func validTab(id string) bool {
	for _, t := range tabs {
		if t.ID == id {
			return true
		}
	}
	return false
}

// state is the page's state as the hash holds it. Before the first result
// of a deep link its filters are the link's (still to apply).
func (p *Page) state() viewState {
	if p.pending != nil {
		s := *p.pending
		s.View = p.currentTab()
		return s
	}
	s := viewState{
		View: p.currentTab(),
		Sev:  p.fq.Severity, Rule: p.fq.Code, File: p.fq.Path,
		Sort: p.fq.Sort, Desc: p.fq.Desc, From: p.fq.Offset,
		Finding: -1,
		Search:  p.iq.Search, Failures: p.iq.Failures, Differs: p.iq.Differences,
		RunA: p.iq.RunA, RunB: p.iq.RunB, Item: p.iq.ID, ErrorCode: p.iq.ErrorCode,
		ItemSort: p.iq.Sort, ItemDesc: p.iq.Desc,
		CmpA: p.cmp.A, CmpB: p.cmp.B,
	}
	switch {
	case p.sel != nil:
		s.Finding = p.selIdx
	case p.pickFinding >= 0:
		s.Finding = p.pickFinding
	}
	return s
}

// setState makes s the page's state and sends the requests it needs (a
// findings or items page, a comparison). Without a result it is kept for
// the first one.
func (p *Page) setState(s viewState) {
	p.tab = s.View
	if p.res == nil {
		p.pending = &s
		return
	}
	p.pending = nil
	fq := wire.FindingQuery{Severity: s.Sev, Code: s.Rule, Path: s.File, Sort: s.Sort, Desc: s.Desc, Offset: s.From}
	if s.Finding >= 0 {
		fq.Offset = s.Finding / findingsPage * findingsPage
	}
	needFind := fq != p.fq
	p.fq = fq
	switch {
	case s.Finding < 0:
		p.sel, p.win, p.pickFinding = nil, nil, -1
	case p.sel == nil || s.Finding != p.selIdx:
		p.sel, p.win, p.pickFinding = nil, nil, s.Finding
		if !needFind && p.fpage != nil {
			p.pickFromPage()
		} else {
			needFind = true
		}
	}
	if needFind {
		p.requestFindings()
	}
	iq := wire.ItemQuery{Search: s.Search, Failures: s.Failures, Differences: s.Differs, RunA: s.RunA, RunB: s.RunB, ID: s.Item,
		ErrorCode: s.ErrorCode, Sort: s.ItemSort, Desc: s.ItemDesc}
	if iq != p.iq {
		p.iq = iq
		if p.meta.Items > 0 {
			p.requestItems()
		}
	}
	if cmp := (wire.CompareRequest{A: s.CmpA, B: s.CmpB}); cmp != p.cmp {
		p.cmp = cmp
		p.compareRuns()
	}
}

// pickFromPage opens the finding p.pickFinding names when the findings
// page shown holds it.
func (p *Page) pickFromPage() {
	pg := p.fpage
	if p.pickFinding < 0 || pg == nil {
		return
	}
	i := p.pickFinding - pg.Offset
	p.pickFinding = -1
	if i < 0 || i >= len(pg.Findings) {
		return
	}
	p.openFinding(pg.Offset + i)
}

// watchHistory applies the hash on Back / Forward and on a link to a hash,
// and takes a deep link's state at start.
func (p *Page) watchHistory() {
	if h := app.Window().Get("location").Get("hash").String(); isStateHash(h) {
		s := parseState(h)
		p.tab = s.View
		p.pending = &s
	}
	p.lastView, p.lastItem, p.lastFinding = p.state().View, p.state().Item, p.state().Finding
	p.hashSeen = app.Window().Get("location").Get("hash").String()
	p.onPop = app.FuncOf(func(this app.Value, args []app.Value) any {
		p.ctx.Dispatch(func(ctx app.Context) { p.followHash() })
		return nil
	})
	app.Window().Call("addEventListener", "popstate", p.onPop)
	// Esc closes the finding's line panel
	p.onKey = app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) > 0 && args[0].Get("key").String() == "Escape" {
			p.ctx.Dispatch(func(ctx app.Context) {
				if p.sel != nil || p.pickFinding >= 0 {
					p.closeFinding()
				}
			})
		}
		return nil
	})
	app.Window().Get("document").Call("addEventListener", "keydown", p.onKey)
}

// OnNav runs when go-app follows a link of the page (an <a href="#…">).
func (p *Page) OnNav(ctx app.Context) {
	if p.mounted {
		p.followHash()
	}
}

// followHash applies the location's hash when it differs from the state.
func (p *Page) followHash() {
	h := app.Window().Get("location").Get("hash").String()
	p.hashSeen = h
	if h != "" && h != "#" && !isStateHash(h) {
		return // an anchor of the page (the skip link's #main)
	}
	s := parseState(h)
	if s.encode() == p.state().encode() {
		return
	}
	p.lastView, p.lastItem, p.lastFinding = s.View, s.Item, s.Finding
	p.setState(s)
}

// syncHash writes the state into the URL after a render: a new history
// entry when the view, the open item or the open finding changed (so Back
// returns to the previous one), the same entry otherwise.
//
// A hash the page has not seen yet is applied, never written over: go-app
// follows a link (an item's id) by pushing its URL and then queueing the
// page's OnNav, and a frame that runs in between (one is due every few
// dozen ms while cards are being drawn) would write the old state back —
// the click was lost (TestItemLinkWhileDrawing).
func (p *Page) syncHash(ctx app.Context) {
	loc := app.Window().Get("location")
	cur := loc.Get("hash").String()
	if cur != p.hashSeen {
		p.ctx.Dispatch(func(app.Context) { p.followHash() })
		return
	}
	s := p.state()
	h := s.encode()
	if strings.TrimPrefix(cur, "#") == h {
		return
	}
	u := "#" + h
	if h == "" {
		u = loc.Get("pathname").String() + loc.Get("search").String()
	}
	method := "replaceState"
	if s.View != p.lastView || s.Item != p.lastItem || (s.Finding != p.lastFinding && s.Finding >= 0) {
		method = "pushState"
	}
	p.lastView, p.lastItem, p.lastFinding = s.View, s.Item, s.Finding
	app.Window().Get("history").Call(method, nil, "", u)
	p.hashSeen = loc.Get("hash").String()
}
