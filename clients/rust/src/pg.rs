//! `FromSql`/`ToSql` (feature `postgres-types`): a `bloomfilter` or
//! `cuckoofilter` column (or its `::bytea`) read by `postgres` or
//! `tokio-postgres` straight into the client's types, and written back as
//! parameters of those types. The binary protocol carries exactly the
//! bytes docs/format.md describes; they are validated as on input.

use std::error::Error as StdError;

use bytes::BytesMut;
use postgres_types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

use crate::{BloomFilter, CuckooFilter, Filter};

type BoxError = Box<dyn StdError + Sync + Send>;

fn is(ty: &Type, name: &str) -> bool {
    ty.name() == name || *ty == Type::BYTEA
}

impl<'a> FromSql<'a> for BloomFilter {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(BloomFilter::from_bytes(raw)?)
    }
    fn accepts(ty: &Type) -> bool {
        is(ty, "bloomfilter")
    }
}

impl<'a> FromSql<'a> for CuckooFilter {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(CuckooFilter::from_bytes(raw)?)
    }
    fn accepts(ty: &Type) -> bool {
        is(ty, "cuckoofilter")
    }
}

impl<'a> FromSql<'a> for Filter {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(Filter::from_bytes(raw)?)
    }
    fn accepts(ty: &Type) -> bool {
        is(ty, "bloomfilter") || is(ty, "cuckoofilter")
    }
}

impl ToSql for BloomFilter {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.extend_from_slice(&self.to_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        is(ty, "bloomfilter")
    }
    to_sql_checked!();
}

impl ToSql for CuckooFilter {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.extend_from_slice(&self.to_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        is(ty, "cuckoofilter")
    }
    to_sql_checked!();
}

impl ToSql for Filter {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        let ok = match self {
            Filter::Bloom(_) => is(ty, "bloomfilter"),
            Filter::Cuckoo(_) => is(ty, "cuckoofilter"),
            Filter::Guava(_) | Filter::RedisBloom(_) => is(ty, "bloomfilter"),
        };
        if !ok {
            return Err(format!("a {:?} filter cannot be a parameter of type {}", self.key_type(), ty.name()).into());
        }
        out.extend_from_slice(&self.to_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        is(ty, "bloomfilter") || is(ty, "cuckoofilter")
    }
    to_sql_checked!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_the_traits() {
        let mut f = BloomFilter::new(1000, 0.01, 0).unwrap();
        f.add(7i64).unwrap();
        let mut out = BytesMut::new();
        f.to_sql(&Type::BYTEA, &mut out).unwrap();
        let g = <BloomFilter as FromSql>::from_sql(&Type::BYTEA, &out).unwrap();
        assert_eq!(g.to_bytes(), f.to_bytes());
        assert!(<BloomFilter as FromSql>::from_sql(&Type::BYTEA, &out[..10]).is_err());
        assert!(!<BloomFilter as FromSql>::accepts(&Type::TEXT));
        let mut c = CuckooFilter::new(1000, 0.01, 0).unwrap();
        c.add("x").unwrap();
        let mut out = BytesMut::new();
        c.to_sql(&Type::BYTEA, &mut out).unwrap();
        match <Filter as FromSql>::from_sql(&Type::BYTEA, &out).unwrap() {
            Filter::Cuckoo(g) => assert!(g.contains("x").unwrap()),
            _ => panic!("a cuckoo filter read as another type"),
        }
    }
}
