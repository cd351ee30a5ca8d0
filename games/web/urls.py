"""URLs of the game pages (namespace ``games``), mounted at ``/games/`` by ``config.urls``."""

from __future__ import annotations

from django.urls import path

from .views import arenas, assists, challenges, history, live, offers, pages, play, records, replay, seeks

app_name = "games"

# Distinct paths, so the order changes nothing but speed: Django tries the patterns in turn, and the ones every
# move, poll and stream asks for come first.
urlpatterns = [
    path("<int:pk>/move/", play.game_move, name="move"),
    path("<int:pk>/poll/", play.game_poll, name="poll"),
    path("live/", live.live, name="live"),
    path("<int:pk>/computer/", play.game_computer_move, name="computer_move"),
    path("<int:pk>/again/", offers.game_again_view, name="again"),
    path("", history.history, name="history"),
    path("new/", pages.game_new, name="new"),
    path("lobby/", history.lobby, name="lobby"),
    path("my-turn/", history.my_turn, name="my_turn"),
    path("seek/", seeks.seek_page, name="seek_page"),
    path("seek/new/", seeks.seek_create_view, name="seek"),
    path("seek/<int:pk>/", seeks.seek_ping_view, name="seek_ping"),
    path("seek/<int:pk>/cancel/", seeks.seek_cancel_view, name="seek_cancel"),
    path("seek/<int:pk>/play/", seeks.seek_play_view, name="seek_play"),
    path("record/", records.records_download, name="records"),
    path("import/", records.record_import, name="import"),
    path("<int:pk>/", play.game_detail, name="detail"),
    path("<int:pk>/resign/", play.game_resign_view, name="resign"),
    path("<int:pk>/abort/", play.game_abort_view, name="abort"),
    path("<int:pk>/replay/", replay.game_replay, name="replay"),
    path("<int:pk>/record/", records.game_record_view, name="record"),
    path("<int:pk>/play-on/", replay.game_play_on_view, name="play_on"),
    path("<int:pk>/accept/", challenges.challenge_accept_view, name="accept"),
    path("<int:pk>/cancel/", challenges.challenge_cancel_view, name="cancel"),
    path("<int:pk>/decline/", challenges.challenge_decline_view, name="decline"),
    path("<int:pk>/claim/", offers.game_claim_view, name="claim"),
    path("<int:pk>/takeback/", assists.game_takeback_view, name="takeback"),
    path("<int:pk>/hint/", assists.game_hint_view, name="hint"),
    path("<int:pk>/draw/", offers.draw_offer_view, name="draw"),
    path("<int:pk>/draw/accept/", offers.draw_accept_view, name="draw_accept"),
    path("<int:pk>/draw/decline/", offers.draw_decline_view, name="draw_decline"),
    path("<int:pk>/rematch/", offers.rematch_offer_view, name="rematch"),
    path("<int:pk>/rematch/accept/", offers.rematch_accept_view, name="rematch_accept"),
    path("<int:pk>/rematch/decline/", offers.rematch_decline_view, name="rematch_decline"),
    path("<int:pk>/berserk/", arenas.game_berserk_view, name="berserk"),
    path("arenas/", arenas.arena_list, name="arenas"),
    path("arenas/new/", arenas.arena_create_view, name="arena_create"),
    path("arenas/<int:pk>/", arenas.arena_page, name="arena"),
    path("arenas/<int:pk>/live/", arenas.arena_live, name="arena_live"),
    path("arenas/<int:pk>/ping/", arenas.arena_ping_view, name="arena_ping"),
    path("arenas/<int:pk>/join/", arenas.arena_join_view, name="arena_join"),
    path("arenas/<int:pk>/withdraw/", arenas.arena_withdraw_view, name="arena_withdraw"),
]
