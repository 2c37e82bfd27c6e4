package throttle

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle/throttletest"
)

// newTestThrottle is a throttle of perMinute on clk, with waits for a 429
// without Retry-After doubling from 1s to 8s.
func newTestThrottle(perMinute int, clk Clock) *Throttle {
	return New(perMinute, testBackoff, clk)
}

// testBackoff doubles from 1s to 8s, without jitter.
func testBackoff(streak int) time.Duration {
	return min(time.Second<<min(streak, 4), 8*time.Second)
}

// near reports whether two paces per minute are equal but for rounding.
func near(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }

// perMinute is a throttle's current pace per minute.
func perMinute(l *Throttle) float64 { return float64(l.pace.Limit()) * 60 }

// paceWait is one wait without deadline or log.
func paceWait(t *Throttle) error { return t.Wait(context.Background(), time.Time{}, nil) }

func TestThrottleSpacesRequestsAfterBurst(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(60, clk) // burst 3, then 57 per minute
	interval := time.Minute / 57
	for i := 0; i < 10; i++ {
		if err := paceWait(l); err != nil {
			t.Fatal(err)
		}
	}
	sleeps := clk.Sleeps()
	if len(sleeps) != 7 {
		t.Fatalf("want the 3 burst requests free and 7 waits, got %v", sleeps)
	}
	for _, s := range sleeps {
		if d := s - interval; d < -time.Microsecond || d > time.Microsecond {
			t.Fatalf("want waits of %s, got %v", interval, sleeps)
		}
	}
}

func TestThrottleNeverExceedsBudgetInAnyMinute(t *testing.T) {
	for _, perMinute := range []int{1, 2, 19, 20, 100, 400, 480} {
		clk := throttletest.NewClock(true)
		l := newTestThrottle(perMinute, clk)
		n := 3*perMinute + 5
		sent := make([]time.Time, 0, n)
		for i := 0; i < n; i++ {
			if err := paceWait(l); err != nil {
				t.Fatal(err)
			}
			sent = append(sent, clk.Now())
			// Idle now and then, so the bucket refills to a full burst.
			if i%(perMinute+1) == perMinute {
				clk.Add(5 * time.Minute)
			}
		}
		budget := perMinute
		for i := 0; i+budget < len(sent); i++ {
			if gap := sent[i+budget].Sub(sent[i]); gap < time.Minute-time.Millisecond {
				t.Fatalf("perMinute %d: requests %d and %d are %s apart: more than %d in a minute", perMinute, i, i+budget, gap, budget)
			}
		}
	}
}

func TestThrottleConcurrentWaitersQueue(t *testing.T) {
	clk := throttletest.NewClock(false) // time stands still: waits add up
	l := newTestThrottle(120, clk)      // burst 6, then 114 per minute
	interval := time.Minute / 114
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := paceWait(l); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	sleeps := clk.Sleeps()
	sort.Slice(sleeps, func(i, j int) bool { return sleeps[i] < sleeps[j] })
	if len(sleeps) != 14 {
		t.Fatalf("want 6 free and 14 queued, got %d waits", len(sleeps))
	}
	for i, s := range sleeps {
		want := time.Duration(i+1) * interval
		if d := s - want; d < -time.Microsecond || d > time.Microsecond {
			t.Fatalf("waiter %d: got %s, want %s", i, s, want)
		}
	}
}

func TestThrottleWaitStopsOnCancel(t *testing.T) {
	l := newTestThrottle(1, RealClock{})
	if err := paceWait(l); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	err := l.Wait(ctx, time.Time{}, nil)
	if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Fatalf("want a prompt context.Canceled, got %v after %s", err, time.Since(start))
	}
	if tokens := l.pace.Tokens(); tokens < -0.01 || tokens > 0.01 {
		t.Fatalf("the cancelled reservation should be given back, tokens = %f", tokens)
	}
}

func TestThrottlePaceWaitPastDeadlineFailsAtOnce(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(60, clk) // burst 3, then one every 1.05s
	for range 3 {
		if err := paceWait(l); err != nil {
			t.Fatal(err)
		}
	}
	err := l.Wait(context.Background(), clk.Now().Add(time.Second), nil)
	var pe *PaceError
	if !errors.As(err, &pe) || !errors.Is(err, context.DeadlineExceeded) || len(clk.Sleeps()) != 0 {
		t.Fatalf("want a PaceError at once, got %v after sleeps %v", err, clk.Sleeps())
	}
	if err := paceWait(l); err != nil || len(clk.Sleeps()) != 1 || clk.Sleeps()[0] > 1100*time.Millisecond {
		t.Fatalf("the refused turn should be given back: %v, sleeps %v", err, clk.Sleeps())
	}
}

func TestThrottle429PausesEveryRequestAndHalvesThePace(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(400, clk) // burst 20, then 380 per minute
	sent := clk.Now()
	p, began := l.Throttled(sent, 57*time.Second, true)
	if !began || p.Wait != 57*time.Second || !near(p.PerMinute, 190) || !near(p.Ceiling, 380) {
		t.Fatalf("want a pause of 57s at 190/minute, got %+v (began %v)", p, began)
	}
	if msg := p.Describe("POST", "/api/x/"); !strings.Contains(msg, "pauses for 57s") || !strings.Contains(msg, "at most 190 requests/minute") {
		t.Fatalf("log line: %s", msg)
	}
	// Every waiter is held until the pause ends, then they go one by one
	// at the halved pace: the burst is gone.
	for range 4 {
		if err := paceWait(l); err != nil {
			t.Fatal(err)
		}
	}
	sleeps := clk.Sleeps()
	interval := time.Minute / 190
	want := []time.Duration{57 * time.Second, interval, interval, interval}
	if len(sleeps) != len(want) {
		t.Fatalf("sleeps %v, want %v", sleeps, want)
	}
	for i := range want {
		if d := sleeps[i] - want[i]; d < -time.Millisecond || d > time.Millisecond {
			t.Fatalf("sleeps %v, want %v", sleeps, want)
		}
	}
}

func TestThrottleOneDecreasePerPause(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(400, clk)
	sent := clk.Now()
	clk.Add(time.Millisecond)
	if _, began := l.Throttled(sent, 10*time.Second, true); !began {
		t.Fatal("the first 429 begins a pause")
	}
	// Requests in flight when the pause began: their 429s extend the
	// pause but do not slow the pace again, nor log again.
	if _, began := l.Throttled(sent, 20*time.Second, true); began {
		t.Fatal("a 429 of a request sent before the pause began another pause")
	}
	l.Answered(sent) // sent before the pause: wins nothing back
	if got := perMinute(l); !near(got, 190) {
		t.Fatalf("pace %.1f/minute, want 190", got)
	}
	if got := l.ResumeTime().Sub(clk.Now()); got != 20*time.Second {
		t.Fatalf("the pause should be extended to 20s, ends in %s", got)
	}
	// A request sent after the pause that is throttled again begins a
	// second pause.
	clk.Add(30 * time.Second)
	if p, began := l.Throttled(clk.Now(), time.Second, true); !began || !near(p.PerMinute, 95) {
		t.Fatalf("want a second pause at 95/minute, got %+v", p)
	}
}

func TestThrottlePaceGrowsBackStepByStep(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(400, clk) // 380 per minute after a burst of 20, step 19
	for range 5 {
		clk.Add(time.Minute)
		l.Throttled(clk.Now(), time.Second, true)
	}
	if got := perMinute(l); !near(got, 19) {
		t.Fatalf("five pauses: pace %.2f/minute, want the floor of 19", got)
	}
	clk.Add(2 * time.Second)
	var paces []float64
	for range 25 {
		l.Answered(clk.Now())
		paces = append(paces, perMinute(l))
	}
	for i, p := range paces {
		if want := min(380, 19*float64(i+2)); !near(p, want) {
			t.Fatalf("after %d answers: pace %.2f (all %v)", i+1, p, paces)
		}
	}
	if l.pace.Burst() != 20 {
		t.Fatalf("back at the configured pace, the burst should be 20 again, is %d", l.pace.Burst())
	}
}

func TestThrottleWithoutPaceStillPauses(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(0, clk)
	for range 100 {
		if err := paceWait(l); err != nil {
			t.Fatal(err)
		}
	}
	p, began := l.Throttled(clk.Now(), 3*time.Second, true)
	if !began || p.PerMinute != 0 || !strings.Contains(p.Describe("GET", "/x"), "not paced") {
		t.Fatalf("pause %+v", p)
	}
	if err := paceWait(l); err != nil {
		t.Fatal(err)
	}
	if s := clk.Sleeps(); len(s) != 1 || s[0] != 3*time.Second {
		t.Fatalf("want one wait of 3s, got %v", s)
	}
}

func TestThrottle429WithoutRetryAfterBacksOff(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(0, clk) // from 1s to 8s
	var waits []time.Duration
	for range 5 {
		clk.Add(time.Minute)
		p, _ := l.Throttled(clk.Now(), 0, false)
		waits = append(waits, p.Wait)
	}
	if waits[0] < time.Second || waits[0] > 1250*time.Millisecond || waits[4] != 8*time.Second {
		t.Fatalf("want 1s growing to the 8s cap, got %v", waits)
	}
	clk.Add(time.Minute)
	l.Answered(clk.Now())
	if p, _ := l.Throttled(clk.Now(), 0, false); p.Wait > 1250*time.Millisecond {
		t.Fatalf("an answer resets the backoff, got %s", p.Wait)
	}
}

func TestThrottleGatePastDeadlineFailsAtOnce(t *testing.T) {
	clk := throttletest.NewClock(true)
	l := newTestThrottle(400, clk)
	l.Throttled(clk.Now(), time.Hour, true)
	err := l.Wait(context.Background(), clk.Now().Add(10*time.Minute), nil)
	var thrErr *ClosedError
	if !errors.As(err, &thrErr) || thrErr.Wait != time.Hour || thrErr.Left != 10*time.Minute || len(clk.Sleeps()) != 0 {
		t.Fatalf("want a ClosedError at once, got %v after %v", err, clk.Sleeps())
	}
}

func TestThrottleWaiterQueuesAgainAfterAPause(t *testing.T) {
	clk := throttletest.NewClock(false) // time moves only when the test moves it
	l := newTestThrottle(60, clk)       // burst 3, then one every 1.05s
	for range 3 {
		if err := paceWait(l); err != nil {
			t.Fatal(err)
		}
	}
	// A waiter queued at the old pace; a short pause begins and ends
	// while it sleeps. It must queue again in the new, slower bucket, not
	// go out on its old turn.
	clk.OnNextSleep(func() { l.Throttled(clk.Now(), 0, true) })
	if err := paceWait(l); err != nil {
		t.Fatal(err)
	}
	if s := clk.Sleeps(); len(s) != 1 {
		t.Fatalf("want one wait for the old turn, got %v", s)
	}
	if tokens := l.pace.TokensAt(clk.Now()); tokens > 0.01 {
		t.Fatalf("the waiter went out on its old turn: the new bucket still holds %.2f tokens", tokens)
	}
	if got := perMinute(l); !near(got, 28.5) {
		t.Fatalf("pace %.2f, want 28.5", got)
	}
}
