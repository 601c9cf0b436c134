package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/lang"
)

// maxResults bounds how many earlier results a session keeps for Out[n]
// and _n: IPython keeps 1000 (its InteractiveShell.cache_size); tensorsh
// keeps fewer, since a result may hold a large tensor on a device.
const maxResults = 200

// results are the earlier results of a front end's cells, as IPython's
// output cache keeps them (IPython/core/displayhook.py, DisplayHook.update_user_ns):
// Out[n] and _n are cell n's result, _ the last, __ the one before, ___
// the one before that.
//
// They also hold the cells' sources, as IPython's input history does
// (IPython/core/history.py, HistoryManager.store_inputs): In[n] and _iN
// are cell n's source, _i the cell before the running one, _ii and _iii
// the ones before that.
type results struct {
	out   map[int]*Value
	order []int     // the counts in out, oldest first
	last  [3]*Value // _, __, ___

	in      map[int]string
	inOrder []int // the counts in in, in the order the cells ran
}

// newResults returns empty results.
func newResults() *results {
	return &results{out: map[int]*Value{}, in: map[int]string{}}
}

// SetInput records src as the source of cell n, for In[n] and _iN, and
// makes it the running cell: _i names the cell before it. Front ends that
// number their cells call it before running the cell, as IPython stores a
// cell's input before running it.
func (s *Session) SetInput(n int, src string) {
	if s.results == nil {
		s.results = newResults()
	}
	r := s.results
	if _, ok := r.in[n]; !ok {
		r.inOrder = append(r.inOrder, n)
	}
	r.in[n] = src
}

// input returns the source that name (_i, _ii, _iii or _iN) refers to.
// ok is false when name is none of those; err is set when it is one but
// there is no such cell.
func (r *results) input(name string) (src string, ok bool, err error) {
	rest, isInput := strings.CutPrefix(name, "_i")
	if !isInput {
		return "", false, nil
	}
	if back := len(name) - 1; rest == "" || rest == "i" || rest == "ii" {
		// _i is the cell before the running one (the last recorded), _ii
		// the one before that; IPython starts them as "".
		if r == nil || len(r.inOrder) == 0 {
			return "", true, fmt.Errorf("%s is the source of a cell before this one, which only a front end that numbers its cells (the Jupyter kernel) records", name)
		}
		if len(r.inOrder) > back {
			return r.in[r.inOrder[len(r.inOrder)-1-back]], true, nil
		}
		return "", true, nil
	}
	n, convErr := strconv.Atoi(rest)
	if convErr != nil || n <= 0 || rest[0] == '0' {
		return "", false, nil
	}
	src, err = r.inN(n, name)
	return src, true, err
}

// inN returns the source of cell n; what names it in messages.
func (r *results) inN(n int, what string) (string, error) {
	if r != nil {
		if src, ok := r.in[n]; ok {
			return src, nil
		}
	}
	return "", fmt.Errorf("%s: no cell %d has run in this session", what, n)
}

// SetResult records v as the result of cell n, for Out[n], _n and _ (and
// __, ___ for the results before it), as IPython does for a cell whose
// value is shown as Out[n]. Front ends that number their cells (the
// Jupyter kernel) call it; a variable of the same name hides the result.
func (s *Session) SetResult(n int, v *Value) {
	if v == nil {
		return
	}
	if s.results == nil {
		s.results = newResults()
	}
	r := s.results
	old := r.last[2]
	r.last = [3]*Value{v, r.last[0], r.last[1]}
	s.release(old)
	if prev, ok := r.out[n]; ok {
		r.out[n] = v
		s.release(prev)
		return
	}
	r.out[n] = v
	r.order = append(r.order, n)
	if len(r.order) > maxResults {
		drop := r.order[0]
		r.order = r.order[1:]
		prev := r.out[drop]
		delete(r.out, drop)
		s.release(prev)
	}
}

// resultVar returns the earlier result that name (_, __, ___ or _N)
// refers to, or the source that _i, _ii, _iii or _iN does. ok is false when name is none of those; err is set when it is
// one but no such result is kept.
func (s *Session) resultVar(name string) (v *Value, ok bool, err error) {
	if !strings.HasPrefix(name, "_") {
		return nil, false, nil
	}
	r := s.results
	if src, ok, err := r.input(name); ok {
		return &Value{Kind: StringValue, Str: src}, true, err
	}
	switch name {
	case "_", "__", "___":
		if r == nil || r.last[len(name)-1] == nil {
			return nil, true, fmt.Errorf("%s is the result of the %s cell shown as Out[n], and there is none yet", name, [...]string{"last", "second-last", "third-last"}[len(name)-1])
		}
		return r.last[len(name)-1], true, nil
	}
	n, convErr := strconv.Atoi(name[1:])
	if convErr != nil || n <= 0 || name[1] == '0' {
		return nil, false, nil
	}
	v, err = r.outN(n, name)
	return v, true, err
}

// outN returns the result of cell n; what names it in messages.
func (r *results) outN(n int, what string) (*Value, error) {
	if r != nil {
		if v, ok := r.out[n]; ok {
			return v, nil
		}
		if len(r.order) > 0 && n < r.order[0] && len(r.order) == maxResults {
			return nil, fmt.Errorf("%s: the result of cell %d is no longer kept (only the last %d are)", what, n, maxResults)
		}
	}
	return nil, fmt.Errorf("%s: cell %d has no result (a cell has one when it shows Out[n])", what, n)
}

// outIndex compiles Out[n], the result of cell n, or In[n], its source,
// when e is one and no variable of that name hides it. ok is false when e
// is neither.
func (c *compiler) outIndex(e *lang.IndexExpr) (o *operand, ok bool, err error) {
	id, isIdent := e.X.(*lang.Ident)
	if !isIdent || id.Name != "Out" && id.Name != "In" {
		return nil, false, nil
	}
	if _, isVar := c.s.vars[id.Name]; isVar {
		return nil, false, nil
	}
	sp := spanOf(e)
	if len(e.Indices) != 1 {
		return nil, true, c.errorf(sp, "TypeError", "%s[n] takes one cell number", id.Name)
	}
	lit, isLit := e.Indices[0].(*lang.BasicLit)
	if !isLit || lit.Kind != lang.INT {
		return nil, true, c.errorf(spanOf(e.Indices[0]), "TypeError", "%s[n] takes a cell number written as an integer, as in %[1]s[3]", id.Name)
	}
	n, err := strconv.Atoi(strings.ReplaceAll(lit.Raw, "_", ""))
	if err != nil {
		return nil, true, c.errorf(spanOf(lit), "KeyError", "%s[%s]: no such cell", id.Name, lit.Raw)
	}
	what := fmt.Sprintf("%s[%d]", id.Name, n)
	var v *Value
	if id.Name == "In" {
		var src string
		src, err = c.s.results.inN(n, what)
		v = &Value{Kind: StringValue, Str: src}
	} else {
		v, err = c.s.results.outN(n, what)
	}
	if err != nil {
		return nil, true, c.errorf(sp, "KeyError", "%v", err)
	}
	o, err = c.varOperand(v, sp)
	return o, true, err
}

// dropResults forgets the earlier results (for :reset, as IPython's
// %reset clears Out), releasing their device memory.
func (s *Session) dropResults() {
	r := s.results
	if r == nil {
		return
	}
	s.results = nil
	freed := map[*backend.Tensor]bool{}
	for _, v := range append(r.last[:], mapValues(r.out)...) {
		if v != nil && v.Kind == TensorValue && !freed[v.Tensor] {
			freed[v.Tensor] = true
			s.release(v)
		}
	}
}

func mapValues(m map[int]*Value) []*Value {
	out := make([]*Value, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
