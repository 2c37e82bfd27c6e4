package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	for _, tc := range []struct {
		name, gogc string
		set        bool
		want       int
	}{
		{name: "GOGC unset", want: gcPercent},
		{name: "GOGC set", gogc: "50", set: true, want: 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := debug.SetGCPercent(50) // what the runtime took from GOGC=50
			defer debug.SetGCPercent(before)
			if tc.set {
				t.Setenv("GOGC", tc.gogc)
			} else {
				unsetEnv(t, "GOGC")
			}
			tuneGC()
			if got := debug.SetGCPercent(before); got != tc.want {
				t.Errorf("GC percent after tuneGC = %d, want %d", got, tc.want)
			}
		})
	}
}
