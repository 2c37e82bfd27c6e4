package scenario

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// A killed apply, played at the protocol level: Terraform killed at a
// request boundary of the apply walk, alone or with its provider. The kill
// switch stands between the provider and the local API and counts the
// walk's requests.
//
//   - Terraform killed: the After-th request is served and its answer
//     reaches the provider, whose operation context is cancelled as it
//     arrives, so that it sends nothing more (a create's POST under way
//     finishes, as stopGrace lets it, and its id reaches the create
//     journal). What the operation in flight returns never reaches the
//     state, and the walk stops. The provider then ends as a killed
//     process: its journal stays.
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

// WrittenID is the id of the config a lost answer to an update was about
// (0: none).
func (l *LostAnswer) WrittenID() int64 {
	if l == nil || l.Method != http.MethodPatch && l.Method != http.MethodPut {
		return 0
	}
	parts := strings.Split(strings.Trim(l.Path, "/"), "/")
	id, _ := strconv.ParseInt(parts[len(parts)-1], 10, 64)
	return id
}

// killSwitch is the handler in front of the local API that plays kills.
type killSwitch struct {
	next http.Handler

	mu    sync.Mutex
	armed *Kill
	kill  func()
	seen  int
	fired bool
	dead  bool
	lost  *LostAnswer
	// serving is the After-th request under way.
	serving sync.WaitGroup
}

// arm makes the next walk's requests count toward k; kill plays the kill
// when the After-th request comes, before the service sees it: it ends the
// walk's context (and the provider's journal, when the provider dies
// too), or kills the terraform process (or its process group).
func (ks *killSwitch) arm(k Kill, kill func()) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	ks.armed, ks.kill = &k, kill
	ks.seen, ks.fired, ks.dead, ks.lost = 0, false, false, nil
}

// disarm ends the walk and reports whether the kill came, and the answer
// a killed provider lost (nil if none), once the service has acted on the
// request the kill came with.
func (ks *killSwitch) disarm() (bool, *LostAnswer) {
	ks.serving.Wait()
	ks.mu.Lock()
	defer ks.mu.Unlock()
	fired, lost := ks.fired, ks.lost
	ks.armed, ks.kill = nil, nil
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
	ks.fired, ks.dead = true, k.Provider
	ks.serving.Add(1)
	defer ks.serving.Done()
	kill := ks.kill
	ks.mu.Unlock()

	kill()
	if !k.Provider {
		// The provider outlives Terraform: this answer reaches it.
		ks.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	ks.next.ServeHTTP(rec, r)
	ks.mu.Lock()
	ks.lost = &LostAnswer{Method: r.Method, Path: r.URL.Path, Status: rec.Code, Body: rec.Body.Bytes()}
	ks.mu.Unlock()
	hangUp(w)
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
