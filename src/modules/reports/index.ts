// Reports and the desk's cash-up (docs/reports.md): routes only; other modules need nothing from here.
export {}
