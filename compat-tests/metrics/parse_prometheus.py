"""Parses Prometheus text exposition from stdin with the Prometheus Python client's own parser
(Debian's python3-prometheus-client) and prints the samples as JSON: [{name, labels, value}].
A malformed exposition makes the parser raise, and this script exit non-zero."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

samples = []
for family in text_string_to_metric_families(sys.stdin.read()):
    for sample in family.samples:
        samples.append({'family': family.name, 'type': family.type, 'name': sample.name,
                        'labels': sample.labels, 'value': sample.value})
print(json.dumps(samples))
