package localapi

import (
	"encoding/json"
	"slices"
)

// catalog indexes the plugins and precomputes what every request needs.
type catalog struct {
	byID map[int64]*catalogEntry
}

type catalogEntry struct {
	Plugin
	info    json.RawMessage
	secrets []string
}

func newCatalog(plugins []Plugin) (*catalog, error) {
	if err := checkPlugins(plugins); err != nil {
		return nil, err
	}
	c := &catalog{byID: make(map[int64]*catalogEntry, len(plugins))}
	for _, p := range plugins {
		e := &catalogEntry{Plugin: p, secrets: p.secretKeys()}
		e.info = e.pluginInfo()
		c.byID[p.ID] = e
	}
	return c, nil
}

func (c *catalog) get(id int64) *catalogEntry { return c.byID[id] }

// ids returns the sorted IDs of the plugins keep accepts.
func (c *catalog) ids(keep func(*Plugin) bool) []int64 {
	var ids []int64
	for id, e := range c.byID {
		if keep(&e.Plugin) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}
