"""URLs of the game pages (namespace ``games``), mounted at ``/games/`` by ``config.urls``."""

from __future__ import annotations

from django.urls import path

from .responses import people_only
from .views import arenas, assists, challenges, history, live, offers, pages, play, records, replay, seeks

app_name = "games"

# Distinct paths, so the order changes nothing but speed: Django tries the patterns in turn, and the ones every
# move, poll and stream asks for come first. ``people_only``: a bot account may read the pages but not play on them.
urlpatterns = [
    path("<int:pk>/move/", people_only(play.game_move), name="move"),
    path("<int:pk>/poll/", play.game_poll, name="poll"),
    path("live/", live.live, name="live"),
    path("<int:pk>/computer/", people_only(play.game_computer_move), name="computer_move"),
    path("<int:pk>/again/", people_only(offers.game_again_view), name="again"),
    path("", history.history, name="history"),
    path("new/", people_only(pages.game_new), name="new"),
    path("lobby/", history.lobby, name="lobby"),
    path("my-turn/", history.my_turn, name="my_turn"),
    path("seek/", seeks.seek_page, name="seek_page"),
    path("seek/new/", people_only(seeks.seek_create_view), name="seek"),
    path("seek/<int:pk>/", seeks.seek_ping_view, name="seek_ping"),
    path("seek/<int:pk>/cancel/", seeks.seek_cancel_view, name="seek_cancel"),
    path("seek/<int:pk>/play/", people_only(seeks.seek_play_view), name="seek_play"),
    path("record/", records.records_download, name="records"),
    path("import/", records.record_import, name="import"),
    path("<int:pk>/", play.game_detail, name="detail"),
    path("<int:pk>/resign/", people_only(play.game_resign_view), name="resign"),
    path("<int:pk>/abort/", people_only(play.game_abort_view), name="abort"),
    path("<int:pk>/replay/", replay.game_replay, name="replay"),
    path("<int:pk>/record/", records.game_record_view, name="record"),
    path("<int:pk>/play-on/", people_only(replay.game_play_on_view), name="play_on"),
    path("<int:pk>/accept/", people_only(challenges.challenge_accept_view), name="accept"),
    path("<int:pk>/cancel/", people_only(challenges.challenge_cancel_view), name="cancel"),
    path("<int:pk>/decline/", people_only(challenges.challenge_decline_view), name="decline"),
    path("<int:pk>/claim/", people_only(offers.game_claim_view), name="claim"),
    path("<int:pk>/takeback/", people_only(assists.game_takeback_view), name="takeback"),
    path("<int:pk>/hint/", people_only(assists.game_hint_view), name="hint"),
    path("<int:pk>/draw/", people_only(offers.draw_offer_view), name="draw"),
    path("<int:pk>/draw/accept/", people_only(offers.draw_accept_view), name="draw_accept"),
    path("<int:pk>/draw/decline/", people_only(offers.draw_decline_view), name="draw_decline"),
    path("<int:pk>/rematch/", people_only(offers.rematch_offer_view), name="rematch"),
    path("<int:pk>/rematch/accept/", people_only(offers.rematch_accept_view), name="rematch_accept"),
    path("<int:pk>/rematch/decline/", people_only(offers.rematch_decline_view), name="rematch_decline"),
    path("<int:pk>/berserk/", people_only(arenas.game_berserk_view), name="berserk"),
    path("arenas/", arenas.arena_list, name="arenas"),
    path("arenas/new/", people_only(arenas.arena_create_view), name="arena_create"),
    path("arenas/<int:pk>/", arenas.arena_page, name="arena"),
    path("arenas/<int:pk>/live/", arenas.arena_live, name="arena_live"),
    path("arenas/<int:pk>/ping/", arenas.arena_ping_view, name="arena_ping"),
    path("arenas/<int:pk>/join/", people_only(arenas.arena_join_view), name="arena_join"),
    path("arenas/<int:pk>/withdraw/", people_only(arenas.arena_withdraw_view), name="arena_withdraw"),
]
