//! The typed encoders reproduce the reference's bytes exactly: the car
//! (baseline, extension, big-endian, and the two golden `.sbe` files of
//! corpus/sbe/golden), and market data. Values come from the documented
//! literals (golden files) or from decoding the vector (every other case),
//! then go through the generated encoder field by field.

mod common;

#[cfg(not(sbe_shared))]
#[test]
fn encoders_reproduce_the_reference_bytes() {
    // Without ../shared at build time the corpus modules do not exist.
    assert!(common::shared_dir("encoders_reproduce_the_reference_bytes").is_none());
}

#[cfg(sbe_shared)]
mod with_shared {

    use super::common::shared_dir;
    use corpus_tests as ct;

    /// Re-encodes a decoded car with the same module's encoder.
    macro_rules! reencode_car {
    ($m:ident, $bin:expr, ext = $ext:tt) => {{
        use ct::$m as m;
        let d = m::CarDecoder::decode($bin).expect("decodes");
        let mut out = vec![0u8; 4096];
        let mut e = m::CarEncoder::wrap(&mut out).expect("wrap");
        e.serial_number(d.serial_number())
            .model_year(d.model_year())
            .available(d.available())
            .code(d.code())
            .some_numbers(d.some_numbers())
            .extras(d.extras());
        e.vehicle_code(d.vehicle_code()).unwrap();
        reencode_car!(@ext $ext, d, e);
        {
            let de = d.engine();
            let mut en = e.engine();
            en.capacity(de.capacity())
                .num_cylinders(de.num_cylinders())
                .efficiency(de.efficiency())
                .booster_enabled(de.booster_enabled());
            en.manufacturer_code(de.manufacturer_code()).unwrap();
            en.booster().boost_type(de.booster().boost_type()).horse_power(de.booster().horse_power());
        }
        let ff = d.fuel_figures();
        let mut g = e.fuel_figures(ff.len()).unwrap();
        for x in ff {
            let mut entry = g.next_entry().unwrap();
            entry.speed(x.speed()).mpg(x.mpg());
            entry.usage_description(x.usage_description()).unwrap();
        }
        let pf = d.performance_figures();
        let mut g = g.end().unwrap().performance_figures(pf.len()).unwrap();
        for p in pf {
            let mut entry = g.next_entry().unwrap();
            entry.octane_rating(p.octane_rating());
            let acc = p.acceleration();
            let mut a = entry.acceleration(acc.len()).unwrap();
            for x in acc {
                a.next_entry().unwrap().mph(x.mph()).seconds(x.seconds());
            }
            a.end().unwrap();
        }
        let n = g
            .end()
            .unwrap()
            .manufacturer(d.manufacturer())
            .unwrap()
            .model(d.model())
            .unwrap()
            .activation_code(d.activation_code())
            .unwrap()
            .finish()
            .unwrap();
        out.truncate(n);
        out
    }};
    (@ext true, $d:ident, $e:ident) => {
        if let Some(u) = $d.uuid() {
            $e.uuid(u);
        }
        $e.cup_holder_count($d.cup_holder_count());
    };
    (@ext false, $d:ident, $e:ident) => {};
}

    fn bins(shared: &std::path::Path, dir: &str, prefix: &str) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(shared.join("vectors").join(dir))
            .expect("vector dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "bin")
                    && p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
            })
            .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
            .collect();
        out.sort();
        assert!(!out.is_empty(), "no vectors in {dir}");
        out
    }

    #[test]
    fn car_vectors_reencode_byte_for_byte() {
        let Some(shared) = shared_dir("car_vectors_reencode_byte_for_byte") else {
            return;
        };
        for (name, bin) in bins(&shared, "sbe__samples__example-schema", "Car-") {
            assert_eq!(
                reencode_car!(s_sbe_samples_example_schema, &bin, ext = false),
                bin,
                "{name}"
            );
        }
        for (name, bin) in bins(&shared, "sbe__samples__example-extension-schema", "Car-") {
            assert_eq!(
                reencode_car!(s_sbe_samples_example_extension_schema, &bin, ext = true),
                bin,
                "{name}"
            );
        }
        for (name, bin) in bins(&shared, "sbe__tests__example-bigendian-test-schema", "Car-") {
            assert_eq!(
                reencode_car!(s_sbe_tests_example_bigendian_test_schema, &bin, ext = false),
                bin,
                "{name}"
            );
        }
    }

    #[test]
    fn repo_car_schema_matches_the_corpus_car() {
        let Some(shared) = shared_dir("repo_car_schema_matches_the_corpus_car") else {
            return;
        };
        for (name, bin) in bins(&shared, "sbe__samples__example-schema", "Car-") {
            assert_eq!(
                reencode_car!(s_repo_schemas_car, &bin, ext = false),
                bin,
                "{name}"
            );
        }
    }

    /// Encodes the documented values of corpus/sbe/golden (see SOURCES.md).
    macro_rules! golden_car {
    ($m:ident, $ext:tt, $nums:expr) => {{
        use ct::$m as m;
        let mut out = vec![0u8; 512];
        let mut e = m::CarEncoder::wrap(&mut out).unwrap();
        e.serial_number(1234)
            .model_year(2013)
            .available(m::BooleanType::T)
            .code(m::Model::A)
            .some_numbers($nums)
            .extras(m::OptionalExtras::default().with_sports_pack(true).with_cruise_control(true));
        e.vehicle_code("abcdef").unwrap();
        golden_car!(@ext $ext, e);
        {
            let mut en = e.engine();
            en.capacity(2000).num_cylinders(4).efficiency(35).booster_enabled(m::BooleanType::T);
            en.manufacturer_code("123").unwrap();
            en.booster().boost_type(m::BoostType::Nitrous).horse_power(200);
        }
        let mut g = e.fuel_figures(3).unwrap();
        for (s, mpg, d) in [
            (30, 35.9f32, "Urban Cycle"),
            (55, 49.0, "Combined Cycle"),
            (75, 40.0, "Highway Cycle"),
        ] {
            let mut entry = g.next_entry().unwrap();
            entry.speed(s).mpg(mpg);
            entry.usage_description(d).unwrap();
        }
        let mut g = g.end().unwrap().performance_figures(2).unwrap();
        for (ron, acc) in [
            (95u8, [(30u16, 4.0f32), (60, 7.5), (100, 12.2)]),
            (99, [(30, 3.8), (60, 7.1), (100, 11.8)]),
        ] {
            let mut entry = g.next_entry().unwrap();
            entry.octane_rating(ron);
            let mut a = entry.acceleration(3).unwrap();
            for (mph, s) in acc {
                a.next_entry().unwrap().mph(mph).seconds(s);
            }
            a.end().unwrap();
        }
        let n = g
            .end()
            .unwrap()
            .manufacturer("Honda").unwrap().model("Civic VTi").unwrap().activation_code("abcdef").unwrap()
            .finish()
            .unwrap();
        out.truncate(n);
        out
    }};
    // uuid and cupHolderCount are not listed in SOURCES.md: null.
    (@ext true, $e:ident) => {
        $e.cup_holder_count(None);
    };
    (@ext false, $e:ident) => {};
}

    #[test]
    fn golden_sbe_files_encode_byte_for_byte() {
        let Some(shared) = shared_dir("golden_sbe_files_encode_byte_for_byte") else {
            return;
        };
        let base =
            std::fs::read(shared.join("corpus/sbe/golden/car_example_baseline_data.sbe")).unwrap();
        assert_eq!(
            golden_car!(s_sbe_samples_example_schema, false, [1, 2, 3, 4]),
            base
        );
        // The "extension" file holds a version 0 message (block length 45):
        // the baseline encoder writes it, with someNumbers 0..3; the extension
        // schema's decoder reads it as version 0, its new fields absent.
        let ext =
            std::fs::read(shared.join("corpus/sbe/golden/car_example_extension_data.sbe")).unwrap();
        assert_eq!(
            golden_car!(s_sbe_samples_example_schema, false, [0, 1, 2, 3]),
            ext
        );
        let d = ct::s_sbe_samples_example_extension_schema::CarDecoder::decode(&ext).unwrap();
        assert_eq!(d.acting_version(), 0);
        assert_eq!(d.cup_holder_count(), None);
        assert_eq!(d.uuid(), None);
        assert_eq!(d.manufacturer_str(), Ok("Honda"));
        // The extension schema's own encoder writes version 1 and decodes back.
        let v1 = golden_car!(s_sbe_samples_example_extension_schema, true, [0, 1, 2, 3]);
        let d = ct::s_sbe_samples_example_extension_schema::CarDecoder::decode(&v1).unwrap();
        assert_eq!(d.acting_version(), 1);
        assert_eq!(d.checked_length(), Ok(v1.len()));
    }

    macro_rules! reencode_trades {
        ($m:ident, $bin:expr) => {{
            use ct::$m as m;
            let d = m::MarketDataIncrementalRefreshTradesDecoder::decode($bin).expect("decodes");
            let mut out = vec![0u8; 4096];
            let mut e = m::MarketDataIncrementalRefreshTradesEncoder::wrap(&mut out).unwrap();
            e.transact_time(d.transact_time())
                .event_time_delta(d.event_time_delta())
                .match_event_indicator(d.match_event_indicator());
            let grp = d.md_inc_grp();
            let mut g = e.md_inc_grp(grp.len()).unwrap();
            for x in grp {
                let entry = g.next_entry().unwrap();
                entry
                    .trade_id(x.trade_id())
                    .security_id(x.security_id())
                    .number_of_orders(x.number_of_orders())
                    .md_update_action(x.md_update_action())
                    .rpt_seq(x.rpt_seq())
                    .aggressor_side(x.aggressor_side());
                entry.md_entry_px().mantissa(x.md_entry_px().mantissa());
                entry.md_entry_size().mantissa(x.md_entry_size().mantissa());
            }
            let n = g.end().unwrap().finish().unwrap();
            out.truncate(n);
            out
        }};
    }

    #[test]
    fn market_data_vectors_reencode_byte_for_byte() {
        let Some(shared) = shared_dir("market_data_vectors_reencode_byte_for_byte") else {
            return;
        };
        for (name, bin) in bins(
            &shared,
            "sbe__benchmarks__fix-message-samples",
            "MarketDataIncrementalRefreshTrades-",
        ) {
            assert_eq!(
                reencode_trades!(s_sbe_benchmarks_fix_message_samples, &bin),
                bin,
                "{name}"
            );
        }
    }
}
