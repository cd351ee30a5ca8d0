"""The site's pages for games: views (a module per screen family), presenters over ``games.pov``, forms, URLs.

Built on the services, the selectors and the point-of-view value; never on the API (``games.api``).
"""
