package main

import (
	"os"
	"runtime/debug"
	"testing"
)

var levelVars = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_PIPELINE"}

// unsetEnv unsets variables for the test, restoring them afterwards.
func unsetEnv(t *testing.T, names ...string) {
	for _, n := range names {
		t.Setenv(n, "") // registers the restore
		if err := os.Unsetenv(n); err != nil {
			t.Fatal(err)
		}
	}
}

func TestQuietUnlessLogged(t *testing.T) {
	tests := map[string]struct {
		env  map[string]string
		want map[string]string // "" = left unset
	}{
		"no logging asked: every level off": {
			want: map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_PIPELINE": "OFF"},
		},
		"TF_LOG set: nothing changes": {
			env: map[string]string{"TF_LOG": "DEBUG"},
		},
		"TF_LOG_PROVIDER set: nothing changes": {
			env: map[string]string{"TF_LOG_PROVIDER": "TRACE"},
		},
		"an explicit level is kept": {
			env:  map[string]string{"TF_LOG_SDK_FRAMEWORK": "TRACE"},
			want: map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "TRACE", "TF_LOG_PROVIDER_PIPELINE": "OFF"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			unsetEnv(t, append([]string{"TF_LOG", "TF_LOG_PROVIDER"}, levelVars...)...)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			quietUnlessLogged()
			for _, n := range levelVars {
				want := tt.want[n]
				if want == "" {
					want = tt.env[n]
				}
				if got := os.Getenv(n); got != want {
					t.Errorf("%s = %q, want %q", n, got, want)
				}
			}
		})
	}
}

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
