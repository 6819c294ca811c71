"""Product names and order on the pages come from the manifests (the runner's registry), not from code."""

from __future__ import annotations

import json
from pathlib import Path

from fixlab_pipelines import db
from fixlab_pipelines.ingest import ingest_paths
from fixlab_pipelines.render import queries

CAMPAIGN = "20261115T1000Z-sample"


def test_labels_order_and_roles_are_read_from_the_manifests(con):
    products = queries.products(con)

    assert products["quickfixj"] == {"product_label": "QuickFIX/J", "product_order": 1, "product_role": "peer"}
    assert products["fixlab"]["product_role"] == "subject"
    labels = [s.label for s in queries.series(con, CAMPAIGN) if s.scenario == "rtt-echo" and s.mode == "paced"]
    assert labels == ["fixlab balanced (paced)", "fixlab optimized (paced)", "QuickFIX/J default (paced)"]


def test_a_new_product_is_named_and_placed_by_its_manifests_alone(runs: Path, tmp_path: Path):
    # Rename QuickFIX/J's runs into a product no code knows, placed before fixlab.
    for manifest in runs.glob(f"{CAMPAIGN}/*.quickfixj.*/manifest.json"):
        data = json.loads(manifest.read_text())
        data["product"].update({"name": "other-engine", "label": "Other Engine", "order": 0})
        data["run_id"] = data["run_id"].replace(".quickfixj.", ".other-engine.")
        manifest.write_text(json.dumps(data, indent=2))
        manifest.parent.rename(manifest.parent.with_name(data["run_id"]))
    for manifest in runs.glob(f"{CAMPAIGN}/*.fixlab.*/manifest.json"):
        data = json.loads(manifest.read_text())
        data["product"]["order"] = 1
        manifest.write_text(json.dumps(data, indent=2))
    con = db.connect(tmp_path / "x.duckdb")
    assert [o.message for o in ingest_paths(con, [runs / CAMPAIGN]) if o.status != "ingested"] == []

    labels = [s.label for s in queries.series(con, CAMPAIGN) if s.scenario == "rtt-echo" and s.mode == "paced"]
    assert labels == ["Other Engine default (paced)", "fixlab balanced (paced)", "fixlab optimized (paced)"]
    con.close()


def test_runs_from_before_the_registry_fall_back_to_the_id_and_sort_last(runs: Path, tmp_path: Path):
    for manifest in runs.glob(f"{CAMPAIGN}/*.quickfixj.*/manifest.json"):
        data = json.loads(manifest.read_text())
        for key in ("label", "order", "role"):
            del data["product"][key]
        manifest.write_text(json.dumps(data, indent=2))
    con = db.connect(tmp_path / "x.duckdb")
    ingest_paths(con, [runs / CAMPAIGN])

    expected = {"product_label": "quickfixj", "product_order": 99, "product_role": "peer"}
    assert queries.products(con)["quickfixj"] == expected
    con.close()
