package acctest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// StateInstance is one managed resource instance of a Terraform state file.
type StateInstance struct {
	SchemaVersion int                        `json:"schema_version"`
	Attributes    map[string]json.RawMessage `json:"attributes"`
	// Identity is the instance's resource identity (Terraform 1.12+), if any.
	Identity json.RawMessage `json:"identity"`
}

// ParseState returns the managed resource instances of a state file by
// address: "type.name", with "[key]" for an instance of count or for_each.
func ParseState(t testing.TB, state []byte) map[string]StateInstance {
	t.Helper()
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				StateInstance
				IndexKey any `json:"index_key"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(state, &st); err != nil {
		t.Fatalf("reading the state: %v", err)
	}
	out := map[string]StateInstance{}
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, in := range r.Instances {
			addr := r.Type + "." + r.Name
			if in.IndexKey != nil {
				addr += fmt.Sprintf("[%v]", in.IndexKey)
			}
			out[addr] = in.StateInstance
		}
	}
	return out
}

// State returns the managed resource instances of the working directory's
// local state by address (none before the first apply).
func (tf *Terraform) State() map[string]StateInstance {
	tf.t.Helper()
	return tf.StateOf("terraform.tfstate")
}

// StateOf is State of the state file name (relative to the working
// directory), e.g. a workspace's.
func (tf *Terraform) StateOf(name string) map[string]StateInstance {
	tf.t.Helper()
	b, err := os.ReadFile(filepath.Join(tf.Dir, name)) //nolint:gosec // G304: the test's own state file
	if os.IsNotExist(err) || err == nil && len(b) == 0 {
		// No state yet (Terraform creates the file empty when it starts).
		return map[string]StateInstance{}
	}
	if err != nil {
		tf.t.Fatal(err)
	}
	return ParseState(tf.t, b)
}

// StateIDs returns the config ids of the resources in the local state, by
// address; resources whose id is not a number (an order's) are left out.
func (tf *Terraform) StateIDs() map[string]int64 {
	tf.t.Helper()
	return tf.StateIDsOf("terraform.tfstate")
}

// StateIDsOf is StateIDs of the state file name.
func (tf *Terraform) StateIDsOf(name string) map[string]int64 {
	tf.t.Helper()
	ids := map[string]int64{}
	for addr, in := range tf.StateOf(name) {
		var id int64
		if json.Unmarshal(in.Attributes["id"], &id) == nil {
			ids[addr] = id
		}
	}
	return ids
}
