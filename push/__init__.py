"""The live push: a change's notice reaches every open page or bot stream that listens to its topics, on any app
server. Writers call ``publish(topics)`` (push.publish) in the transaction of their change; the notice is appended
to the log after the commit (push.transports), each process's hub follows the log (push.hub), and streams hand the
notices on (push.streams). Topics are plain strings the domain chooses (games.live: "game:12", "player:3",
"lobby"); this package knows nothing of games.
"""
