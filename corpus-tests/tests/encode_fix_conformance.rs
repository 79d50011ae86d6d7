//! The typed encoders of the FIX conformance schemas (one schema at
//! versions 0, 1 and 2) reproduce every conformance vector byte for byte:
//! each message is decoded, then written again field by field.

mod common;

#[cfg(not(sbe_shared))]
#[test]
fn fix_conformance_vectors_reencode_byte_for_byte() {
    assert!(common::shared_dir("fix_conformance_vectors_reencode_byte_for_byte").is_none());
}

#[cfg(sbe_shared)]
mod with_shared {
    use super::common::shared_dir;
    use corpus_tests as ct;

    macro_rules! if_v {
        (v0, $($t:tt)*) => {};
        (v1, $($t:tt)*) => { $($t)* };
        (v2, $($t:tt)*) => { $($t)* };
    }
    /// The first expression at version 2, the second before it: a var
    /// data section of version 2 changes the type of the stage after it,
    /// so each version finishes the message its own way.
    macro_rules! v2_or {
        (v2, $then:expr, $else:expr) => {
            $then
        };
        ($v:tt, $then:expr, $else:expr) => {
            $else
        };
    }

    macro_rules! reencode {
        ($m:ident, $v:tt, $bin:expr) => {{
            use ct::$m as m;
            let mut out = vec![0u8; 4096];
            let n = match m::decode($bin).expect("decodes") {
                m::Message::BusinessMessageReject(d) => {
                    let mut e = m::BusinessMessageRejectEncoder::wrap(&mut out).unwrap();
                    e.busines_reject_ref_id(d.busines_reject_ref_id()).unwrap();
                    e.business_reject_reason(d.business_reject_reason());
                    e.text(d.text()).unwrap().finish().unwrap()
                }
                m::Message::ExecutionReport(d) => {
                    let mut e = m::ExecutionReportEncoder::wrap(&mut out).unwrap();
                    e.order_id(d.order_id()).unwrap();
                    e.exec_id(d.exec_id()).unwrap();
                    e.symbol(d.symbol()).unwrap();
                    e.exec_type(d.exec_type())
                        .ord_status(d.ord_status())
                        .side(d.side())
                        .trade_date(d.trade_date());
                    {
                        let (s, t) = (d.maturity_month_year(), e.maturity_month_year());
                        let mut t = t;
                        t.year(s.year())
                            .month(s.month())
                            .day(s.day())
                            .week(s.week());
                    }
                    e.leaves_qty().mantissa(d.leaves_qty().mantissa());
                    e.cum_qty().mantissa(d.cum_qty().mantissa());
                    if_v!(
                        $v,
                        if let Some(x) = d.security_id() {
                            e.security_id(x).unwrap();
                        }
                    );
                    let fills = d.fills_grp();
                    let mut g = e.fills_grp(fills.len()).unwrap();
                    for f in fills {
                        let entry = g.next_entry().unwrap();
                        entry.fill_px().mantissa(f.fill_px().mantissa());
                        entry.fill_qty().mantissa(f.fill_qty().mantissa());
                    }
                    let e = g.end().unwrap();
                    v2_or!(
                        $v,
                        match d.reject_text() {
                            Some(x) => e.reject_text(x).unwrap().finish().unwrap(),
                            None => e.finish().unwrap(),
                        },
                        e.finish().unwrap()
                    )
                }
                m::Message::NewOrderSingle(d) => {
                    let mut e = m::NewOrderSingleEncoder::wrap(&mut out).unwrap();
                    e.cl_ord_id(d.cl_ord_id()).unwrap();
                    e.account(d.account()).unwrap();
                    e.symbol(d.symbol()).unwrap();
                    e.side(d.side())
                        .transact_time(d.transact_time())
                        .ord_type(d.ord_type());
                    e.order_qty().mantissa(d.order_qty().mantissa());
                    e.price().mantissa(d.price().mantissa());
                    e.stop_px().mantissa(d.stop_px().mantissa());
                    if_v!(
                        $v,
                        if let Some(q) = d.min_qty() {
                            e.min_qty().mantissa(q.mantissa());
                        }
                    );
                    v2_or!(
                        $v,
                        match d.compliance_text() {
                            Some(x) => e.compliance_text(x).unwrap().finish().unwrap(),
                            None => e.finish().unwrap(),
                        },
                        e.finish().unwrap()
                    )
                }
            };
            out.truncate(n);
            out
        }};
    }

    #[test]
    fn fix_conformance_vectors_reencode_byte_for_byte() {
        let Some(shared) = shared_dir("fix_conformance_vectors_reencode_byte_for_byte") else {
            return;
        };
        let mut checked = 0;
        for (dir, v) in [("schema1", 0), ("schema2", 1), ("schema3", 2)] {
            let path = shared
                .join("vectors")
                .join(format!("fix__conformance__{dir}"));
            let mut bins: Vec<_> = std::fs::read_dir(&path)
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "bin"))
                .collect();
            bins.sort();
            for p in bins {
                let bin = std::fs::read(&p).unwrap();
                let ours = match v {
                    0 => reencode!(s_fix_conformance_schema1, v0, &bin),
                    1 => reencode!(s_fix_conformance_schema2, v1, &bin),
                    _ => reencode!(s_fix_conformance_schema3, v2, &bin),
                };
                assert_eq!(ours, bin, "{}", p.display());
                checked += 1;
            }
        }
        assert_eq!(checked, 36);
    }
}
