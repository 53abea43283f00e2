/// The console's one stylesheet, served at `/console/console.css` (the
/// Content-Security-Policy allows no other style, no inline style and no
/// script). The report's look is the device's HTML export's.
enum ConsoleStyle {
    static let css = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        body { margin: 0; background: #f3f4f6; color: #111827; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        nav { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 18px; padding: 10px 24px; background: #1f2937; color: #f9fafb; }
        nav a { color: #e5e7eb; text-decoration: none; font-weight: 600; }
        nav a:hover { color: #fff; text-decoration: underline; }
        nav .brand { font-weight: 800; letter-spacing: .02em; margin-right: 8px; }
        nav .who { margin-left: auto; }
        nav .who .muted { color: #9ca3af; }
        nav form { margin: 0; }
        nav button { background: none; color: #e5e7eb; border: 1px solid #4b5563; }
        main { max-width: 1120px; margin: 24px auto; background: #fff; padding: 28px 36px; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
        h1 { margin: 0 0 12px; font-size: 24px; }
        h2 { margin: 26px 0 10px; font-size: 18px; border-bottom: 2px solid #e5e7eb; padding-bottom: 4px; }
        h3 { margin: 20px 0 8px; font-size: 15px; color: #374151; text-transform: uppercase; letter-spacing: .04em; }
        a { color: #1d4ed8; }
        code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .88em; overflow-wrap: anywhere; }
        .muted { color: #6b7280; }
        .error { color: #991b1b; background: #fef2f2; border-left: 4px solid #b91c1c; padding: 8px 12px; }
        #notice { color: #065f46; background: #ecfdf5; border-left: 4px solid #059669; padding: 8px 12px; }
        .card { border: 1px solid #e5e7eb; border-radius: 8px; padding: 16px 18px; margin: 16px 0; background: #fafafa; }
        .card.warning { border-color: #f59e0b; background: #fffbeb; }
        .narrow { max-width: 380px; }
        label { display: inline-flex; flex-direction: column; gap: 2px; margin: 0 12px 8px 0; font-size: 13px; color: #374151; }
        form.card label, #sign-in label { display: flex; }
        input, select, textarea, button { font: inherit; }
        input, select, textarea { padding: 5px 8px; border: 1px solid #d1d5db; border-radius: 5px; background: #fff; color: #111827; }
        textarea { width: 100%; min-height: 2.2em; resize: vertical; }
        button { padding: 6px 14px; border: 1px solid #9ca3af; border-radius: 5px; background: #f9fafb; cursor: pointer; }
        button:hover { background: #f3f4f6; }
        button.approve { background: #065f46; color: #fff; border-color: #065f46; }
        button.return { background: #b45309; color: #fff; border-color: #b45309; }
        button.reject { background: #b91c1c; color: #fff; border-color: #b91c1c; }
        .buttons { display: flex; gap: 10px; flex-wrap: wrap; }
        form.inline { display: inline-flex; flex-wrap: wrap; align-items: flex-end; gap: 4px; margin: 2px 6px 2px 0; }
        form.inline label { margin: 0 4px 0 0; }
        #filters { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 4px; margin: 12px 0; }
        #counts, #action-counts { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 0 0 8px; }
        #counts li a, #action-counts li a { display: inline-block; padding: 4px 12px; border: 1px solid #d1d5db; border-radius: 14px; text-decoration: none; color: #111827; }
        #counts li.current a, #action-counts li.current a { background: #1f2937; color: #fff; border-color: #1f2937; }
        #counts .count, #action-counts .count { font-weight: 700; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e5e7eb; vertical-align: top; overflow-wrap: break-word; }
        th { white-space: nowrap; }
        td.facility, td.template { overflow-wrap: anywhere; }
        th { background: #f9fafb; font-weight: 600; }
        .num { text-align: right; white-space: nowrap; }
        td a.open { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
        tr.report:hover td { background: #f9fafb; }
        .pager { display: flex; gap: 16px; }
        span.state { display: inline-block; padding: 1px 9px; border-radius: 10px; font-size: 12px; font-weight: 700; border: 1px solid currentColor; white-space: nowrap; }
        span.state.awaiting_review { color: #1e40af; background: #dbeafe; }
        span.state.approved { color: #065f46; background: #d1fae5; }
        span.state.returned { color: #92400e; background: #fef3c7; }
        span.state.rejected { color: #991b1b; background: #fee2e2; }
        .flag { color: #b45309; font-size: 12px; font-weight: 700; }
        span.action-state { display: inline-block; padding: 1px 9px; border-radius: 10px; font-size: 12px; font-weight: 700; border: 1px solid currentColor; white-space: nowrap; }
        span.action-state.open { color: #1e40af; } span.action-state.in_progress { color: #92400e; }
        span.action-state.done { color: #065f46; } span.action-state.verified { color: #065f46; background: #d1fae5; }
        span.action-state.cancelled { color: #6b7280; }
        td.severity-high, td.severity-critical, span.severity-high, span.severity-critical { color: #b91c1c; font-weight: 700; }
        #thread blockquote { margin: 4px 0 8px 16px; white-space: pre-wrap; }
        .flag.severity-high, .flag.severity-critical { color: #b91c1c; text-transform: uppercase; }
        #queue td:first-child { white-space: nowrap; }
        dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0; }
        dl.meta div { display: contents; }
        dt { color: #6b7280; }
        dd { margin: 0; overflow-wrap: anywhere; }
        .review-comment { margin: 10px 0 0; padding: 6px 10px; border-left: 3px solid #b45309; background: #fffbeb; white-space: pre-wrap; }
        section.score { display: flex; align-items: center; gap: 24px; margin: 20px 0 0; padding: 14px 20px; border: 2px solid #d1d5db; border-radius: 8px; }
        section.score .percent { font-size: 52px; font-weight: 700; line-height: 1; color: #1f2937; }
        section.score.passed { border-color: #6ee7b7; background: #ecfdf5; }
        section.score.passed .percent, section.score.passed .verdict { color: #065f46; }
        .deficiencies-list { color: #b91c1c; }
        div.field.deficient { border-left: 4px solid #b91c1c; padding-left: 8px; background: #fef2f2; }
        .badge.deficient { background: #fee2e2; color: #991b1b; }
        td.score.failed { color: #b91c1c; font-weight: 600; }
        td.score.passed { color: #065f46; }
        td.score .outcome { font-size: 12px; }
        section.score .verdict { margin: 0; font-size: 18px; font-weight: 600; }
        section.score p { margin: 2px 0; }
        section.score.failed { border-color: #b91c1c; background: #fef2f2; }
        section.score.failed .percent, section.score.failed .verdict, .critical-failures { color: #b91c1c; }
        details.breakdown { margin: 10px 0; }
        td.outcome.passed { color: #065f46; }
        td.outcome.failed { color: #b91c1c; font-weight: 600; }
        tr.hidden td { color: #9ca3af; }
        .form-section { margin-bottom: 8px; }
        .field { display: grid; grid-template-columns: minmax(180px, 30%) 1fr; gap: 12px; padding: 8px 0; border-bottom: 1px solid #f3f4f6; }
        .field .label { font-weight: 600; overflow-wrap: anywhere; }
        .field.hidden-field .label { color: #9ca3af; font-weight: 500; }
        .field-comment { margin: 6px 0 0; padding: 4px 8px; border-left: 3px solid #b45309; background: #fffbeb; white-space: pre-wrap; }
        .field-comment-box { margin-top: 6px; font-size: 13px; }
        .req { color: #b91c1c; }
        .note { font-style: italic; color: #4b5563; margin: 8px 0; }
        .text { white-space: pre-wrap; overflow-wrap: anywhere; }
        .answer { overflow-wrap: anywhere; }
        .answer ul { margin: 0; padding-left: 20px; }
        .answer-table th, .answer-table td { border: 1px solid #e5e7eb; }
        .badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 700; letter-spacing: .03em; border: 1px solid currentColor; }
        .badge.critical, .severity-critical { color: #fff; background: #b91c1c; border-color: #b91c1c; }
        .severity-high { color: #b91c1c; background: #fee2e2; }
        .severity-medium { color: #92400e; background: #fef3c7; }
        .severity-low { color: #1e40af; background: #dbeafe; }
        .issue { padding: 8px 0; border-bottom: 1px solid #f3f4f6; }
        .issue p { margin: 0 0 6px; }
        .photos { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 10px; margin-top: 4px; }
        figure.photo { margin: 0; padding: 6px; border: 1px solid #e5e7eb; border-radius: 6px; background: #fff; }
        img.photo-thumb { display: block; max-width: 200px; max-height: 200px; height: auto; }
        figure.photo figcaption { font-size: 12px; color: #6b7280; margin-top: 4px; }
        figure.missing { padding: 16px; color: #6b7280; font-style: italic; background: #f9fafb; }
        td.before { color: #991b1b; }
        td.after { color: #065f46; }
        ol.events { padding-left: 20px; }
        ol.events li { margin: 4px 0; }
        .when { color: #6b7280; font-size: 13px; }
        ul.areas { list-style: none; padding: 0; margin: 0; }
        ul.sections li { margin: 6px 0; font-size: 16px; }
        #score-chart { max-width: 100%; height: auto; background: #fff; }
        #score-chart .grid { stroke: #e5e7eb; stroke-width: 1; }
        #score-chart .axis { fill: #6b7280; font-size: 11px; }
        #score-chart .trend { fill: none; stroke: #1d4ed8; stroke-width: 2; }
        #score-chart .point { fill: #1d4ed8; stroke: #fff; stroke-width: 1.5; }
        #score-chart .point.passed { fill: #059669; }
        #score-chart .point.failed { fill: #b91c1c; }
        body.printable { background: #fff; }
        @page { size: A4; margin: 14mm 12mm; }
        @media print {
          nav, form, .field-comment-box, .pager { display: none; }
          body { background: none; font-size: 10.5pt; }
          main { max-width: none; margin: 0; padding: 0; box-shadow: none; border-radius: 0; }
          .badge, span.state, section.score.failed .percent { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
          h2, h3 { break-after: avoid; }
          .field, .issue, figure.photo, tr, section.score { break-inside: avoid; }
          img.photo-thumb { max-width: 160px; max-height: 160px; }
        }

        """
}
