package scenario

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
)

// A killed apply, played at the protocol level: Terraform killed at a
// request boundary of the apply walk, alone or with its provider. The kill
// switch stands between the provider and the local API and counts the
// walk's requests.
//
//   - Terraform killed: the After-th request is served and its answer
//     reaches the provider, whose operation context is cancelled before it
//     can send another (a create's POST under way finishes, as stopGrace
//     lets it, and its id reaches the create journal). What the operation
//     in flight returns never reaches the state, and the walk stops. The
//     provider then ends as a killed process: its journal stays.
//   - The provider killed with it: the After-th request reaches the
//     service, which acts on it, but its answer never comes back; the
//     provider's journal ends there, and nothing it sends afterwards
//     reaches the service.

// Kill is when and how an apply walk is killed.
type Kill struct {
	// After is the request of the walk with which the kill comes (1: the
	// first).
	After int
	// Provider: the provider dies too, before the After-th answer.
	Provider bool
	// Saved: the state Terraform had written before the kill holds what
	// the operations finished before it made (Terraform persists the
	// state now and then during an apply), else the state is as before
	// the apply.
	Saved bool
}

// LostAnswer is the request whose answer a killed provider never got.
type LostAnswer struct {
	Method, Path string
	Status       int
	Body         []byte
}

// CreatedID is the id of the config a lost answer to a create named (0:
// none was made).
func (l *LostAnswer) CreatedID() int64 {
	if l == nil || l.Method != http.MethodPost || l.Status != http.StatusCreated {
		return 0
	}
	var rec struct {
		ID *int64 `json:"id"`
	}
	if json.Unmarshal(l.Body, &rec) != nil || rec.ID == nil {
		return 0
	}
	return *rec.ID
}

// killSwitch is the handler in front of the local API that plays kills.
type killSwitch struct {
	next http.Handler

	mu      sync.Mutex
	armed   *Kill
	cancel  context.CancelFunc
	release func()
	seen    int
	fired   bool
	dead    bool
	lost    *LostAnswer
}

// arm makes the next walk's requests count toward k: cancel ends the
// walk's context, release ends the provider's journal as a killed
// process's.
func (ks *killSwitch) arm(k Kill, cancel context.CancelFunc, release func()) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	ks.armed, ks.cancel, ks.release = &k, cancel, release
	ks.seen, ks.fired, ks.dead, ks.lost = 0, false, false, nil
}

// disarm ends the walk and reports whether the kill came, and the answer
// a killed provider lost (nil if none).
func (ks *killSwitch) disarm() (bool, *LostAnswer) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	fired, lost := ks.fired, ks.lost
	ks.armed, ks.cancel, ks.release = nil, nil, nil
	ks.dead = false
	return fired, lost
}

// firedYet reports whether the armed kill came.
func (ks *killSwitch) firedYet() bool {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return ks.fired
}

func (ks *killSwitch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ks.mu.Lock()
	k := ks.armed
	if k == nil || ks.fired && !ks.dead {
		// Not armed, or Terraform gone and its provider still there: what
		// the provider still sends reaches the service.
		ks.mu.Unlock()
		ks.next.ServeHTTP(w, r)
		return
	}
	if ks.dead {
		ks.mu.Unlock()
		hangUp(w)
		return
	}
	ks.seen++
	if ks.seen < k.After {
		ks.mu.Unlock()
		ks.next.ServeHTTP(w, r)
		return
	}
	ks.fired = true
	ks.dead = k.Provider
	cancel, release := ks.cancel, ks.release
	ks.mu.Unlock()

	rec := httptest.NewRecorder()
	ks.next.ServeHTTP(rec, r)
	if k.Provider {
		release()
		cancel()
		ks.mu.Lock()
		ks.lost = &LostAnswer{Method: r.Method, Path: r.URL.Path, Status: rec.Code, Body: rec.Body.Bytes()}
		ks.mu.Unlock()
		hangUp(w)
		return
	}
	// Terraform is gone once this answer is out.
	cancel()
	for key, v := range rec.Header() {
		w.Header()[key] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("the kill switch needs a connection it can close")
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		_ = conn.Close()
	}
}
