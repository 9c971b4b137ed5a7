"""An oslo.messaging notification listener (Debian's python3-oslo.messaging, unmodified): it
listens on RabbitMQ for `topic` on `exchange` and prints each notification as one JSON line
(priority, publisher_id, event_type, payload, metadata, context). `READY` is printed once it consumes.

usage: listener.py TRANSPORT_URL EXCHANGE TOPIC
"""
import json
import sys
import threading

from oslo_config import cfg
import oslo_messaging

url, exchange, topic = sys.argv[1:4]
lock = threading.Lock()


class Endpoint:
    def _record(self, ctxt, priority, publisher_id, event_type, payload, metadata):
        with lock:
            print(json.dumps({'priority': priority, 'publisher_id': publisher_id, 'event_type': event_type,
                              'payload': payload, 'metadata': metadata, 'context': ctxt}), flush=True)

    def __getattr__(self, name):
        if name in ('audit', 'debug', 'info', 'warn', 'error', 'critical', 'sample'):
            return lambda ctxt, publisher_id, event_type, payload, metadata: self._record(
                ctxt, name, publisher_id, event_type, payload, metadata)
        raise AttributeError(name)


conf = cfg.ConfigOpts()
conf([])
transport = oslo_messaging.get_notification_transport(conf, url=url)
listener = oslo_messaging.get_notification_listener(
    transport, [oslo_messaging.Target(topic=topic, exchange=exchange)], [Endpoint()], executor='threading')
# One worker: the threading executor otherwise dispatches a batch's messages concurrently, and the
# printed order (which the tests check, as the bus delivers it) could differ from the queue's.
listener.start(override_pool_size=1)
print('READY', flush=True)
try:
    threading.Event().wait()
except KeyboardInterrupt:
    pass
finally:
    listener.stop()
