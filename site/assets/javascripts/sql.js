// The SQL page: DuckDB-Wasm in the browser over the summary Parquet that `fixlab render` writes.
//
// Nothing is fetched until a query runs on the page that holds <div id="fixlab-sql">: the
// WebAssembly module is about 18 MB. DuckDB-Wasm is served by this site (assets/duckdb/,
// copied there by `make site`), never by a CDN. Each example of the page (a ```sql block
// inside .fixlab-sql-example) gets a button that puts it into the query box and runs it.
// Results are written into the table as text (textContent): data never becomes markup.
(function () {
  "use strict";

  var assets = new URL("../duckdb/", document.currentScript.src).href;
  var TABLE = "run_stat_values";
  var starting = null;

  function start(parquetUrl) {
    if (starting) return starting;
    starting = (async function () {
      var duckdb = await import(assets + "duckdb-browser.mjs");
      var bundle = await duckdb.selectBundle({
        mvp: { mainModule: assets + "duckdb-mvp.wasm", mainWorker: assets + "duckdb-browser-mvp.worker.js" },
        eh: { mainModule: assets + "duckdb-eh.wasm", mainWorker: assets + "duckdb-browser-eh.worker.js" },
      });
      var worker = new Worker(bundle.mainWorker);
      var db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
      await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
      var response = await fetch(parquetUrl);
      if (!response.ok) throw new Error("cannot load " + parquetUrl + ": HTTP " + response.status);
      await db.registerFileBuffer("summary.parquet", new Uint8Array(await response.arrayBuffer()));
      var connection = await db.connect();
      await connection.query("CREATE VIEW " + TABLE + " AS SELECT * FROM read_parquet('summary.parquet')");
      return connection;
    })();
    starting.catch(function () { starting = null; });  // a failed start may be retried
    return starting;
  }

  // One cell as text. Arrow hands BIGINT over as BigInt, timestamps and dates as epoch
  // milliseconds; everything else prints as JavaScript prints it.
  function cellText(value, type) {
    if (value === null || value === undefined) return "NULL";
    var Arrow = globalThis.Arrow;
    if (Arrow && type && (Arrow.DataType.isTimestamp(type) || Arrow.DataType.isDate(type))) {
      return new Date(Number(value)).toISOString().replace("T", " ").replace(/\.000Z$|Z$/, "");
    }
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "object" && value.toJSON) return JSON.stringify(value.toJSON());
    return String(value);
  }

  function showTable(target, table) {
    var fields = table.schema.fields;
    var element = document.createElement("table");
    var head = element.createTHead().insertRow();
    fields.forEach(function (field) {
      var th = document.createElement("th");
      th.textContent = field.name;
      head.appendChild(th);
    });
    var body = element.createTBody();
    var columns = fields.map(function (field, i) { return table.getChildAt(i); });
    for (var r = 0; r < table.numRows; r++) {
      var row = body.insertRow();
      columns.forEach(function (column, i) {
        row.insertCell().textContent = cellText(column.get(r), fields[i].type);
      });
    }
    target.replaceChildren(element);
  }

  function setup(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = "1";
    var box = root.querySelector(".fixlab-sql-query");
    var runButton = root.querySelector(".fixlab-sql-run");
    var status = root.querySelector(".fixlab-sql-status");
    var result = root.querySelector(".fixlab-sql-result");
    var parquetUrl = new URL(root.dataset.parquet, window.location.href).href;

    async function run() {
      var sql = box.value;
      runButton.disabled = true;
      status.textContent = starting ? "Running…" : "Loading DuckDB-Wasm and the summary (first query only)…";
      result.replaceChildren();
      var began = performance.now();
      try {
        var connection = await start(parquetUrl);
        var table = await connection.query(sql);
        showTable(result, table);
        status.textContent = table.numRows + (table.numRows === 1 ? " row" : " rows") + " in "
          + Math.round(performance.now() - began) + " ms";
        root.dataset.state = "done";
      } catch (error) {
        status.textContent = "Error: " + (error && error.message ? error.message : String(error));
        root.dataset.state = "error";
      } finally {
        runButton.disabled = false;
      }
    }

    runButton.addEventListener("click", run);
    box.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); run(); }
    });
    var buttons = root.querySelector(".fixlab-sql-examples");
    document.querySelectorAll(".fixlab-sql-example").forEach(function (example) {
      var code = example.querySelector("code");
      var title = example.querySelector("strong");
      if (!code) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "md-button fixlab-sql-example-button";
      button.textContent = title ? title.textContent : "Example";
      button.addEventListener("click", function () {
        box.value = code.textContent.trim();
        root.dataset.state = "running";
        run();
      });
      buttons.appendChild(button);
    });
  }

  function setupAll() {
    document.querySelectorAll("#fixlab-sql").forEach(setup);
  }

  // Material's instant navigation swaps pages without reloading scripts: document$ fires on each.
  if (window.document$ && window.document$.subscribe) {
    window.document$.subscribe(setupAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setupAll);
  } else {
    setupAll();
  }
})();
