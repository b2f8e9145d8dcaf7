/** The pages' only stylesheet, served at /assets/signet.css. */
export const STYLESHEET = `
body{font-family:system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{display:flex;gap:1rem;align-items:center;padding:.75rem 1.5rem;background:#1d2330;color:#fff}
header a{color:#fff;text-decoration:none}.brand{font-weight:700;margin-right:auto}
header form{margin:0}header button{background:none;border:1px solid #fff;color:#fff}
main{max-width:52rem;margin:1.5rem auto;padding:0 1.5rem}
section{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:1rem 1.25rem;margin-bottom:1rem}
label{display:block;margin:.5rem 0 .2rem}input,textarea{width:100%;padding:.4rem;box-sizing:border-box;font:inherit}
textarea{font-family:monospace;min-height:8rem}
button{margin-top:.6rem;padding:.4rem 1rem;font:inherit;cursor:pointer;border-radius:4px;border:1px solid #3056d3;background:#3056d3;color:#fff}
button.secondary{background:#fff;color:#3056d3}.inline{display:inline}
dt{font-weight:600;margin-top:.5rem}dd{margin:0;font-family:monospace;word-break:break-all}
.once{border:2px solid #d39e00;background:#fff8e1;padding:.75rem;font-family:monospace;white-space:pre-wrap;word-break:break-all}
.error{border:1px solid #c62828;background:#fdecea;color:#8e1c1c;padding:.6rem;border-radius:4px}
figure{margin:.5rem 0;overflow-x:auto}input[type=image]{width:auto;padding:0;border:0;outline:1px solid #dde1e7;cursor:crosshair}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #eee}
`;
